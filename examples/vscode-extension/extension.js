// A VS Code extension that drives a Python REPL through tuidriver: the command shows
// the live REPL in a terminal panel (toPseudoterminal) and asks it a question.
const vscode = require('vscode');
const { Session, TuiDriverError, toPseudoterminal } = require('tuidriver');

const NAME = 'tuidriver: python';

/** @type {import('tuidriver').Session | undefined} */
let session;
/** @type {vscode.Terminal | undefined} the panel that shows `session` */
let terminal;
/** @type {vscode.OutputChannel} every question and answer, whole: a notification shows one line */
let output;

/** @param {vscode.ExtensionContext} context */
function activate(context) {
  output = vscode.window.createOutputChannel(NAME);
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('tuidriverExample.askPython', () => askPython()),
    { dispose: () => session?.close() },
  );
}

async function askPython() {
  try {
    const python = await livePython();
    const prompt = await vscode.window.showInputBox({ prompt: 'A Python expression', value: '6*7' });
    if (prompt === undefined) return;
    const answer = await python.ask(prompt, { timeoutMs: 30_000 });
    output.appendLine(`>>> ${prompt}`);
    output.appendLine(answer);
    if (answer.includes('\n')) output.show(true);  // a traceback, a loop's lines: whole, in the Output panel
    else vscode.window.showInformationMessage(`python: ${answer}`);
  } catch (e) {
    report(e);
  }
}

/** The running Python; a new one (and its panel) when the last one exited or its panel was closed. */
async function livePython() {
  if (session && !session.exited && terminal && terminal.exitStatus === undefined) return session;
  // Close what is replaced (its panel closes the session too); nothing of it stays running.
  const old = session;
  session = undefined;
  terminal?.dispose();
  terminal = undefined;
  await old?.close();
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  // As VS Code's own terminals do, Python is told which terminal shows it.
  session = await Session.spawn('python', { cwd, cols: 100, rows: 30, extraEnv: { TERM_PROGRAM: 'vscode' } });
  // The panel closes the session once Python exits (`exit()` typed in it) or the panel is closed.
  terminal = vscode.window.createTerminal({ name: NAME, pty: toPseudoterminal(session) });
  terminal.show(true);
  return session;
}

/** An error as a person can act on it: one line in a notification, the whole of it in the Output panel. */
function report(e) {
  if (e instanceof TuiDriverError && e.kind === 'needs_input') {
    // Python waits for input (`input()`, a pager): the person answers in the panel itself.
    output.appendLine(`python waits for input: ${e.question ?? ''}`);
    terminal?.show(false);
    vscode.window.showWarningMessage('Python is waiting for input: answer it in the terminal panel, then ask again.');
    return;
  }
  if (e instanceof TuiDriverError && e.kind === 'unfinished_input') {
    // A line typed in the panel without Enter: the ask would run into it.
    output.appendLine(`error (unfinished_input): ${e.message}`);
    terminal?.show(false);
    vscode.window.showWarningMessage('The terminal panel holds a line you have not finished: press Enter or Ctrl+C there, then ask again.');
    return;
  }
  const kind = e instanceof TuiDriverError ? ` (${e.kind})` : '';
  const message = e instanceof Error ? e.message : String(e);
  output.appendLine(`error${kind}: ${message}`);
  if (e instanceof TuiDriverError && e.text) output.appendLine(e.text);  // what the reply had so far
  const lines = message.split('\n');
  if (lines.length > 1 || (e instanceof TuiDriverError && e.text)) output.show(true);
  vscode.window.showErrorMessage(`tuidriver${kind}: ${lines[0]}${lines.length > 1 ? ' (the whole message is in the Output panel)' : ''}`);
}

function deactivate() {
  return session?.close();
}

module.exports = { activate, deactivate };
