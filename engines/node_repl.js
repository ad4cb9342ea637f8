// Start-up code of tuidriver's node engine (node node_repl.js TOKEN).
//
// The standard REPL (no colours, no preview, no `undefined` after statements,
// interruptible with C-c), with a prompt unique to the session, so that no
// program output can look like it, and one command: `.td "<source>"` (the
// engine's submit.wrap), which evaluates a whole submission as one REPL input
// (multi-line functions and classes, top-level await, `let` that lasts) and
// shows only the value of its last expression, as the prompt would.
'use strict';
const repl = require('repl');

const token = process.argv[2] || 'td';
const server = repl.start({
  prompt: `td-${token}> `,
  preview: false,
  useColors: false,
  ignoreUndefined: true,
  breakEvalOnSigint: true,
});

server.defineCommand('td', {
  help: 'Evaluate a JSON string literal of source code as one input (tuidriver)',
  action(literal) {
    let source;
    try {
      source = JSON.parse(literal);
    } catch (e) {
      console.log(`tuidriver: .td needs a JSON string literal (${e.message})`);
      this.displayPrompt();
      return;
    }
    this.eval(source, this.context, 'REPL', (err, value) => {
      // A syntax error comes wrapped as "Recoverable" (the REPL would wait for more lines).
      const e = err && err.err instanceof Error ? err.err : err;
      if (err) console.log(`Uncaught ${e instanceof Error ? `${e.name}: ${e.message}` : this.writer(e)}`);
      else if (value !== undefined) console.log(this.writer(value));
      this.displayPrompt();
    });
  },
});
