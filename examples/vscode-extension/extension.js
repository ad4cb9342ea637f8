// A VS Code extension that drives a Python REPL through tuidriver: the command shows
// the live REPL in a terminal panel (toPseudoterminal) and asks it a question.
const vscode = require('vscode');
const { Session, TuiDriverError, toPseudoterminal } = require('tuidriver');

/** @type {import('tuidriver').Session | undefined} */
let session;

/** @param {vscode.ExtensionContext} context */
function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand('tuidriverExample.askPython', () => askPython()),
    { dispose: () => session?.close() },
  );
}

async function askPython() {
  try {
    if (!session || session.exited) {
      const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
      session = await Session.spawn('python', { cwd, cols: 100, rows: 30 });
      const terminal = vscode.window.createTerminal({ name: 'tuidriver: python', pty: toPseudoterminal(session) });
      terminal.show(true);
    }
    const prompt = await vscode.window.showInputBox({ prompt: 'A Python expression', value: '6*7' });
    if (prompt === undefined) return;
    const answer = await session.ask(prompt, { timeoutMs: 30_000 });
    vscode.window.showInformationMessage(`python: ${answer}`);
  } catch (e) {
    const kind = e instanceof TuiDriverError ? ` (${e.kind})` : '';
    vscode.window.showErrorMessage(`tuidriver${kind}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function deactivate() {
  return session?.close();
}

module.exports = { activate, deactivate };
