// ACP session ids and the CLIs' own, kept on disk. Codex and pi name their
// session only during its first turn, after session/new answered with an id
// of ours; an editor loads that id later, from a new tuidriver-acp process.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The most pairs kept: the oldest go first. */
const MAX_PAIRS = 1000;

export class SessionIds {
  /** @param {NodeJS.ProcessEnv} env the file is under $XDG_STATE_HOME (~/.local/state) */
  constructor(env, log) {
    const state = env.XDG_STATE_HOME || path.join(env.HOME || os.homedir(), '.local', 'state');
    this.file = path.join(state, 'tuidriver-acp', 'session-ids.json');
    this.log = log;
  }

  /** The CLI's own id of ACP session `acpId`, if the CLI named it differently. */
  cliId(acpId) {
    return this.read()[acpId];
  }

  /** Remembers that ACP session `acpId` is the CLI's session `cliId`. */
  remember(acpId, cliId) {
    const pairs = Object.entries(this.read()).filter(([k]) => k !== acpId);
    pairs.push([acpId, cliId]);
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      // Whole or not at all: another tuidriver-acp may read it meanwhile.
      const tmp = `${this.file}.${process.pid}`;
      fs.writeFileSync(tmp, JSON.stringify(Object.fromEntries(pairs.slice(-MAX_PAIRS))));
      fs.renameSync(tmp, this.file);
    } catch (e) {
      this.log(`cannot keep session ${acpId}'s id for a later session/load in ${this.file}: ${e.message}`);
    }
  }

  read() {
    try {
      const pairs = JSON.parse(fs.readFileSync(this.file, 'utf8'));
      return pairs && typeof pairs === 'object' ? pairs : {};
    } catch {
      return {};  // none yet, or unreadable: load then tries the id as the CLI's own
    }
  }
}
