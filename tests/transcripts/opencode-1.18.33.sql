PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE `message` (
          `id` text PRIMARY KEY,
          `session_id` text NOT NULL,
          `time_created` integer NOT NULL,
          `time_updated` integer NOT NULL,
          `data` text NOT NULL,
          CONSTRAINT `fk_message_session_id_session_id_fk` FOREIGN KEY (`session_id`) REFERENCES `session`(`id`) ON DELETE CASCADE
        );
INSERT INTO message VALUES('msg_214b6aac70016cHn3frFOUV6RX','ses_deb4956c2ffenCj9XN0gaVa1Gz',1795643845319,1795643853508,'{"role":"user","time":{"created":1795643845319},"agent":"build","model":{"providerID":"fake","modelID":"fake-model"},"summary":{"diffs":[]}}');
INSERT INTO message VALUES('msg_214b6c813001hHeUvbY9pUFPtQ','ses_deb4956c2ffenCj9XN0gaVa1Gz',1795643852819,1795643859893,'{"parentID":"msg_214b6aac70016cHn3frFOUV6RX","role":"assistant","mode":"build","agent":"build","path":{"cwd":"/work/project","root":"/"},"cost":0,"tokens":{"total":32,"input":12,"output":20,"reasoning":0,"cache":{"write":0,"read":0}},"modelID":"fake-model","providerID":"fake","time":{"created":1795643852819,"completed":1795643859892},"finish":"tool-calls"}');
INSERT INTO message VALUES('msg_214b6e3c10017yZd8YB5jtoyi0','ses_deb4956c2ffenCj9XN0gaVa1Gz',1795643859905,1795643861326,'{"parentID":"msg_214b6aac70016cHn3frFOUV6RX","role":"assistant","mode":"build","agent":"build","path":{"cwd":"/work/project","root":"/"},"cost":0,"tokens":{"total":32,"input":12,"output":20,"reasoning":0,"cache":{"write":0,"read":0}},"modelID":"fake-model","providerID":"fake","time":{"created":1795643859905,"completed":1795643861324},"finish":"stop"}');
INSERT INTO message VALUES('msg_214b712cc001mH5Y4UTB78wg2T','ses_deb4956c2ffenCj9XN0gaVa1Gz',1795643871948,1795643877315,'{"role":"user","time":{"created":1795643871948},"agent":"build","model":{"providerID":"fake","modelID":"fake-model"},"summary":{"diffs":[]}}');
INSERT INTO message VALUES('msg_214b725b60016tmpkTq0ZfWUMy','ses_deb4956c2ffenCj9XN0gaVa1Gz',1795643876790,1795643882677,'{"parentID":"msg_214b712cc001mH5Y4UTB78wg2T","role":"assistant","mode":"build","agent":"build","path":{"cwd":"/work/project","root":"/"},"cost":0,"tokens":{"total":32,"input":12,"output":20,"reasoning":0,"cache":{"write":0,"read":0}},"modelID":"fake-model","providerID":"fake","time":{"created":1795643876790,"completed":1795643882673},"finish":"stop"}');
CREATE TABLE `part` (
          `id` text PRIMARY KEY,
          `message_id` text NOT NULL,
          `session_id` text NOT NULL,
          `time_created` integer NOT NULL,
          `time_updated` integer NOT NULL,
          `data` text NOT NULL,
          CONSTRAINT `fk_part_message_id_message_id_fk` FOREIGN KEY (`message_id`) REFERENCES `message`(`id`) ON DELETE CASCADE
        );
INSERT INTO part VALUES('prt_214b6aafd001GSu3a9bDiYsHBT','msg_214b6aac70016cHn3frFOUV6RX','ses_deb4956c2ffenCj9XN0gaVa1Gz',1795643852733,1795643852736,'{"type":"text","text":"\"run the tool\""}');
INSERT INTO part VALUES('prt_214b6d3f6001f75tGidSN2S2CO','msg_214b6c813001hHeUvbY9pUFPtQ','ses_deb4956c2ffenCj9XN0gaVa1Gz',1795643855862,1795643855865,'{"type":"step-start"}');
INSERT INTO part VALUES('prt_214b6d414001HAEvLmpfhBiO4F','msg_214b6c813001hHeUvbY9pUFPtQ','ses_deb4956c2ffenCj9XN0gaVa1Gz',1795643855892,1795643859827,'{"type":"tool","tool":"bash","callID":"toolu_1795643855404","state":{"status":"completed","input":{"command":"echo tool said hi","description":"Say hi"},"output":"tool said hi\n","metadata":{"output":"tool said hi\n","exit":0,"truncated":false},"title":"echo tool said hi","time":{"start":1795643855974,"end":1795643859813}}}');
INSERT INTO part VALUES('prt_214b6e37f001aZoOewYfpG0hjD','msg_214b6c813001hHeUvbY9pUFPtQ','ses_deb4956c2ffenCj9XN0gaVa1Gz',1795643859839,1795643859851,'{"reason":"tool-calls","type":"step-finish","tokens":{"total":32,"input":12,"output":20,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0}');
INSERT INTO part VALUES('prt_214b6e8c1001G3cUMew6RE9Xko','msg_214b6e3c10017yZd8YB5jtoyi0','ses_deb4956c2ffenCj9XN0gaVa1Gz',1795643861185,1795643861211,'{"type":"step-start"}');
INSERT INTO part VALUES('prt_214b6e8de001nsm1bCGSjiXbao','msg_214b6e3c10017yZd8YB5jtoyi0','ses_deb4956c2ffenCj9XN0gaVa1Gz',1795643861215,1795643861225,'{"type":"text","text":"Done.","time":{"start":1795643861214,"end":1795643861224}}');
INSERT INTO part VALUES('prt_214b6e90b001PFbmBkRNQ3LJvl','msg_214b6e3c10017yZd8YB5jtoyi0','ses_deb4956c2ffenCj9XN0gaVa1Gz',1795643861260,1795643861261,'{"reason":"stop","type":"step-finish","tokens":{"total":32,"input":12,"output":20,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0}');
INSERT INTO part VALUES('prt_214b7133f001c1B45TdOh2EkzI','msg_214b712cc001mH5Y4UTB78wg2T','ses_deb4956c2ffenCj9XN0gaVa1Gz',1795643876596,1795643876631,'{"type":"text","text":"\"make a plan\""}');
INSERT INTO part VALUES('prt_214b73bf3001A86ZFNFGKrRHsw','msg_214b725b60016tmpkTq0ZfWUMy','ses_deb4956c2ffenCj9XN0gaVa1Gz',1795643882484,1795643882494,'{"type":"step-start"}');
INSERT INTO part VALUES('prt_214b73c1b001QKEqNhKhw0SyPj','msg_214b725b60016tmpkTq0ZfWUMy','ses_deb4956c2ffenCj9XN0gaVa1Gz',1795643882523,1795643882599,'{"type":"text","text":"## Plan\nUse **bold** and `code`.\n\n- first item\n- second item","time":{"start":1795643882523,"end":1795643882577}}');
INSERT INTO part VALUES('prt_214b73c9000149OZ7jh7oAer1q','msg_214b725b60016tmpkTq0ZfWUMy','ses_deb4956c2ffenCj9XN0gaVa1Gz',1795643882640,1795643882642,'{"reason":"stop","type":"step-finish","tokens":{"total":32,"input":12,"output":20,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0}');
CREATE TABLE `session` (
          `id` text PRIMARY KEY,
          `project_id` text NOT NULL,
          `workspace_id` text,
          `parent_id` text,
          `slug` text NOT NULL,
          `directory` text NOT NULL,
          `path` text,
          `title` text NOT NULL,
          `version` text NOT NULL,
          `share_url` text,
          `summary_additions` integer,
          `summary_deletions` integer,
          `summary_files` integer,
          `summary_diffs` text,
          `metadata` text,
          `cost` real DEFAULT 0 NOT NULL,
          `tokens_input` integer DEFAULT 0 NOT NULL,
          `tokens_output` integer DEFAULT 0 NOT NULL,
          `tokens_reasoning` integer DEFAULT 0 NOT NULL,
          `tokens_cache_read` integer DEFAULT 0 NOT NULL,
          `tokens_cache_write` integer DEFAULT 0 NOT NULL,
          `revert` text,
          `permission` text,
          `agent` text,
          `model` text,
          `time_created` integer NOT NULL,
          `time_updated` integer NOT NULL,
          `time_compacting` integer,
          `time_archived` integer,
          CONSTRAINT `fk_session_project_id_project_id_fk` FOREIGN KEY (`project_id`) REFERENCES `project`(`id`) ON DELETE CASCADE
        );
INSERT INTO session VALUES('ses_deb4956c2ffenCj9XN0gaVa1Gz','global',NULL,NULL,'jolly-garden','/work/project','work/project','Untitled','1.18.33',NULL,0,0,0,NULL,NULL,0.0,36,60,0,0,0,NULL,'[{"permission":"question","pattern":"*","action":"deny"},{"permission":"plan_enter","pattern":"*","action":"deny"},{"permission":"plan_exit","pattern":"*","action":"deny"}]','build','{"id":"fake-model","providerID":"fake","variant":"default"}',1795643844926,1795643882944,NULL,NULL);
COMMIT;
