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

// Whether the program's output so far ends a line: the REPL redraws its prompt
// line from column 0, which would erase output with no final newline
// (process.stdout.write('x')), so such output gets its newline first.
let atLineStart = true;
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  const text = String(chunk);
  if (text.length > 0) atLineStart = text.endsWith('\n');
  return write(chunk, ...rest);
};

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
    atLineStart = true;
    this.eval(source, this.context, 'REPL', (err, value) => {
      if (!atLineStart) process.stdout.write('\n');
      // A syntax error comes wrapped as "Recoverable" (the REPL would wait for more lines).
      const e = err && err.err instanceof Error ? err.err : err;
      if (err) console.log(`Uncaught ${e instanceof Error ? `${e.name}: ${e.message}` : this.writer(e)}`);
      else if (value !== undefined) console.log(this.writer(value));
      this.displayPrompt();
    });
  },
});
