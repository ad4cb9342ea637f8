"""Code a user would paste into the python, bash and node REPLs.

Table-driven: each snippet is asked through its engine, and run as a script
too; the reply must be exactly what the script prints. Snippets whose last
statement is a bare expression also name the value the REPL shows for it (as
a notebook cell does). Then the cases of a REPL that must never get stuck:
output with no final newline, background output, questions, continuation
prompts, interrupts, output that looks like a prompt."""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

from tuiclient import Daemon, program

HOLDING_REPL = program("holding_repl.py")

# (snippet, what the REPL adds after the script's output: the value of a
# final bare expression, or None when the last statement is not one)
PYTHON = [
    ("print('hello')", None),
    ("total = 0\nfor i in range(3):\n    total += i\nprint(total)", None),
    ("def f(x):\n\n    y = x * 2\n\n    return y\nprint(f(1), 1)", None),
    ("class A:\n    def m(self):\n        return 'm'\n\nprint(A().m())", None),
    ("import functools\n\n@functools.lru_cache\ndef sq(n):\n    return n * n\n\nprint(sq(7))", None),
    ("if __name__ == '__main__':\n    print('as a script')", None),
    ("for i in range(3):\n    if i % 2:\n        print('odd', i)\n    else:\n        print('even', i)\nprint('done')", None),
    ("print('no newline', end='')", None),
    ("x = 'pri\tz'\nprint(repr(x))", None),
    ("try:\n    1 / 0\nexcept ZeroDivisionError as e:\n    print('caught', e)", None),
    ("data = {'b': 2, 'a': 1}\nfor k in sorted(data):\n    print(k, data[k])", None),
    ("print('\\u2705 caf\\u00e9 \\u4e2d\\u6587')", None),
    ("while True:\n    break\nprint('after the loop')", None),
    ("x = [i * i for i in range(5)]\nx", "[0, 1, 4, 9, 16]"),
    ("6 * 7", "42"),
    ("import math\nmath.sqrt(16)", "4.0"),
    ("print('first')\nNone", ""),
    ("print('a\\tb\\tc')\nprint('\\t'.join(['x', 'yy', 'zzz']))", None),
    # A script's end waits for its threads.
    ("import threading\nthreading.Timer(0.2, print, ['from a thread']).start()\nprint('main')", None),
]
BASH = [
    ("echo hello", None),
    ("printf hello", None),
    ("for i in 1 2 3; do\n  echo \"n$i\"\ndone", None),
    ("if [ 1 -lt 2 ]; then\n  echo yes\nelse\n  echo no\nfi", None),
    ("greet() {\n  echo \"hi $1\"\n}\ngreet you", None),
    ("cat <<EOF\nline one\n  line two\nEOF", None),
    ("x=5\necho $((x * 2))", None),
    ("printf 'a\\tb\\n' | cut -f2", None),
    ("case foo in\n  f*) echo matched ;;\n  *) echo other ;;\nesac", None),
    ("printf 'no newline either'", None),
    ("x='a\tb'\necho \"${#x}\"", None),  # a TAB is typed, never completed
    ("printf 'name\\tsize\\nfile.txt\\t12\\n'", None),
]
NODE = [
    ("console.log('hello')", None),
    ("function f(a) {\n  return a * 2;\n}\nconsole.log(f(4))", None),
    ("class A {\n  m() { return 'm'; }\n}\nconsole.log(new A().m())", None),
    ("for (let i = 0; i < 3; i++) {\n  console.log('n' + i);\n}", None),
    ("const xs = [3, 1, 2];\nxs.sort();\nconsole.log(xs.join(','))", None),
    ("process.stdout.write('no newline\\n')", "true"),
    ("let q = 3;\nq = q * 2;\nconsole.log(q)", None),
    ("const o = { a: 1,\n  b: [1, 2] };\nconsole.log(JSON.stringify(o))", None),
    ("6 * 7", "42"),
    ("'ab'.repeat(3)", "'ababab'"),
    ("console.log(['id', 'name'].join('\\t'))", None),
    # Output after the code returned: microtasks and timers, as a script.
    ("Promise.resolve(1200).then(console.log);\nundefined", None),
    ("setTimeout(() => console.log('later'), 50);\nconsole.log('first');\nundefined", None),
    ("const p1 = Promise.resolve(3);\nconst p2 = new Promise((r) => setTimeout(r, 100, 'foo'));\n"
     "Promise.all([p1, 42, p2]).then((values) => console.log(values));\nundefined", None),
    ("function resolveAfter(ms) {\n  return new Promise((resolve) => setTimeout(() => resolve('resolved'), ms));\n}\n"
     "async function asyncCall() {\n  console.log('calling');\n  const result = await resolveAfter(300);\n"
     "  console.log(result);\n}\nasyncCall();\nundefined", None),
]

# From the Python tutorial (docs.python.org/3/tutorial), as a reader types them.
PYTHON += [
    ("print('C:\\some\\name')\nprint(r'C:\\some\\name')", None),
    ("print(\"\"\"\\\nUsage: thingy [OPTIONS]\n     -h                        Display this usage message\n\"\"\")", None),
    ("word = 'Python'\nprint(word[0], word[-1], word[0:2], word[2:5], word[:2] + word[2:])", None),
    ("squares = [1, 4, 9, 16, 25]\nprint(squares[-3:], squares + [36, 49])", None),
    ("a, b = 0, 1\nwhile a < 10:\n    print(a)\n    a, b = b, a+b", None),
    ("a, b = 0, 1\nwhile a < 1000:\n    print(a, end=',')\n    a, b = b, a+b", None),
    ("x = 42\nif x < 0:\n    print('Negative')\nelif x == 0:\n    print('Zero')\nelse:\n    print('More')", None),
    ("words = ['cat', 'window', 'defenestrate']\nfor w in words:\n    print(w, len(w))", None),
    ("users = {'Hans': 'active', 'Éléonore': 'inactive', '景太郎': 'active'}\nfor user, status in users.copy().items():\n    if status == 'inactive':\n        del users[user]\nprint(users)", None),
    ("print(list(range(5, 10)), list(range(0, 10, 3)), list(range(-10, -100, -30)))", None),
    ("a = ['Mary', 'had', 'a', 'little', 'lamb']\nfor i in range(len(a)):\n    print(i, a[i])", None),
    ("for n in range(2, 10):\n    for x in range(2, n):\n        if n % x == 0:\n            print(n, 'equals', x, '*', n//x)\n            break\n    else:\n        print(n, 'is a prime number')", None),
    ("for num in range(2, 10):\n    if num % 2 == 0:\n        print(f\"Found an even number {num}\")\n        continue\n    print(f\"Found an odd number {num}\")", None),
    ("def http_error(status):\n    match status:\n        case 400:\n            return \"Bad request\"\n        case 404:\n            return \"Not found\"\n        case _:\n            return \"Something's wrong with the internet\"\nprint(http_error(404), http_error(500))", None),
    ("def fib2(n):\n    result = []\n    a, b = 0, 1\n    while a < n:\n        result.append(a)\n        a, b = b, a+b\n    return result\nf100 = fib2(100)\nprint(f100)", None),
    ("def parrot(voltage, state='a stiff', action='voom', type='Norwegian Blue'):\n    print(\"-- This parrot wouldn't\", action, end=' ')\n    print(\"if you put\", voltage, \"volts through it.\")\nparrot(1000)\nparrot(voltage=1000000, action='VOOOOOM')", None),
    ("def cheeseshop(kind, *arguments, **keywords):\n    print(\"-- Do you have any\", kind, \"?\")\n    for arg in arguments:\n        print(arg)\n    print(\"-\" * 40)\n    for kw in keywords:\n        print(kw, \":\", keywords[kw])\ncheeseshop(\"Limburger\", \"It's very runny, sir.\", shopkeeper=\"Michael Palin\", sketch=\"Cheese Shop Sketch\")", None),
    ("def make_incrementor(n):\n    return lambda x: x + n\nf = make_incrementor(42)\nprint(f(0), f(1))", None),
    ("pairs = [(1, 'one'), (2, 'two'), (3, 'three'), (4, 'four')]\npairs.sort(key=lambda pair: pair[1])\nprint(pairs)", None),
    ("def my_function():\n    \"\"\"Do nothing, but document it.\n\n    No, really, it doesn't do anything.\n    \"\"\"\n    pass\nprint(my_function.__doc__)", None),
    ("fruits = ['orange', 'apple', 'pear', 'banana', 'kiwi', 'apple', 'banana']\nprint(fruits.count('apple'), fruits.index('banana'))\nfruits.reverse()\nprint(fruits)\nfruits.sort()\nprint(fruits)", None),
    ("from collections import deque\nqueue = deque([\"Eric\", \"John\", \"Michael\"])\nqueue.append(\"Terry\")\nprint(queue.popleft(), queue)", None),
    ("print([(x, y) for x in [1,2,3] for y in [3,1,4] if x != y])", None),
    ("matrix = [\n    [1, 2, 3, 4],\n    [5, 6, 7, 8],\n    [9, 10, 11, 12],\n]\nprint([[row[i] for row in matrix] for i in range(4)])\nprint(list(zip(*matrix)))", None),
    ("basket = {'apple', 'orange', 'apple', 'pear', 'orange', 'banana'}\nprint(sorted(basket), 'orange' in basket)", None),
    ("tel = {'jack': 4098, 'sape': 4139}\ntel['guido'] = 4127\ndel tel['sape']\nprint(tel, list(tel), sorted(tel))", None),
    ("knights = {'gallahad': 'the pure', 'robin': 'the brave'}\nfor k, v in knights.items():\n    print(k, v)", None),
    ("questions = ['name', 'quest', 'favorite color']\nanswers = ['lancelot', 'the holy grail', 'blue']\nfor q, a in zip(questions, answers):\n    print('What is your {0}?  It is {1}.'.format(q, a))", None),
    ("year = 2016\nevent = 'Referendum'\nprint(f'Results of the {year} {event}')\nyes_votes = 42_572_654\ntotal_votes = 85_705_149\npercentage = yes_votes / total_votes\nprint('{:-9} YES votes  {:2.2%}'.format(yes_votes, percentage))", None),
    ("for x in range(1, 11):\n    print(repr(x).rjust(2), repr(x*x).rjust(3), repr(x*x*x).rjust(4))", None),
    ("import json\nx = [1, 'simple', 'list']\nprint(json.dumps(x))", None),
    ("while True:\n    try:\n        x = int('12')\n        break\n    except ValueError:\n        print('Oops!')\nprint(x)", None),
    ("class B(Exception):\n    pass\nclass C(B):\n    pass\nclass D(C):\n    pass\nfor cls in [B, C, D]:\n    try:\n        raise cls()\n    except D:\n        print(\"D\")\n    except C:\n        print(\"C\")\n    except B:\n        print(\"B\")", None),
    ("def divide(x, y):\n    try:\n        result = x / y\n    except ZeroDivisionError:\n        print(\"division by zero!\")\n    else:\n        print(\"result is\", result)\n    finally:\n        print(\"executing finally clause\")\ndivide(2, 1)\ndivide(2, 0)", None),
    ("class Dog:\n    kind = 'canine'\n    def __init__(self, name):\n        self.name = name\nd = Dog('Fido')\ne = Dog('Buddy')\nprint(d.kind, e.kind, d.name, e.name)", None),
    ("class Reverse:\n    def __init__(self, data):\n        self.data = data\n        self.index = len(data)\n    def __iter__(self):\n        return self\n    def __next__(self):\n        if self.index == 0:\n            raise StopIteration\n        self.index = self.index - 1\n        return self.data[self.index]\nfor char in Reverse('spam'):\n    print(char)", None),
    ("def reverse(data):\n    for index in range(len(data)-1, -1, -1):\n        yield data[index]\nfor char in reverse('golf'):\n    print(char)", None),
    ("print(sum(i*i for i in range(10)))", None),
    ("import math\nprint(math.cos(math.pi / 4), math.log(1024, 2))", None),
    ("from datetime import date\nbirthday = date(1964, 7, 31)\nage = date(2003, 12, 2) - birthday\nprint(age.days)", None),
]

# From MDN and the Node.js docs, as a reader types them.
NODE += [
    ("const array1 = [1, 4, 9, 16];\nconst map1 = array1.map((x) => x * 2);\nconsole.log(map1);", None),
    ("const words = ['spray', 'elite', 'exuberant', 'destruction', 'present'];\nconsole.log(words.filter((word) => word.length > 6));", None),
    ("const arr3 = [1, 2, 3, 4];\nconsole.log(arr3.reduce((acc, cur) => acc + cur, 0));", None),
    ("const object1 = { a: 'somestring', b: 42 };\nfor (const [key, value] of Object.entries(object1)) {\n  console.log(`${key}: ${value}`);\n}", None),
    ("class Rectangle {\n  constructor(height, width) {\n    this.height = height;\n    this.width = width;\n  }\n  get area() {\n    return this.height * this.width;\n  }\n}\nconsole.log(new Rectangle(10, 10).area);", None),
    ("const promise1 = new Promise((resolve) => {\n  setTimeout(() => {\n    resolve('foo');\n  }, 300);\n});\npromise1.then((value) => {\n  console.log(value);\n});\nundefined;", None),
    ("const p = Promise.allSettled([Promise.resolve(3), new Promise((resolve, reject) => setTimeout(reject, 100, 'foo'))]);\np.then((results) => results.forEach((result) => console.log(result.status)));\nundefined;", None),
    ("const slow = new Promise((resolve) => setTimeout(resolve, 500, 'one'));\nconst fast = new Promise((resolve) => setTimeout(resolve, 100, 'two'));\nPromise.race([slow, fast]).then((value) => console.log(value));\nundefined;", None),
    ("async function f() {\n  try {\n    await Promise.reject(new Error('oops'));\n  } catch (e) {\n    console.log('caught', e.message);\n  }\n}\nf();\nundefined;", None),
    ("function* generator(i) {\n  yield i;\n  yield i + 10;\n}\nconst gen = generator(10);\nconsole.log(gen.next().value);\nconsole.log(gen.next().value);", None),
    ("const { a, b, ...rest } = { a: 10, b: 20, c: 30, d: 40 };\nconsole.log(a, b, rest);", None),
    ("const m1 = new Map();\nm1.set('a', 1);\nm1.set('b', 2);\nconsole.log(m1.get('a'), m1.size);\nm1.delete('b');\nconsole.log(m1.size);", None),
    ("const set1 = new Set([1, 2, 3, 4, 5]);\nconsole.log(set1.has(1), set1.has(6));", None),
    ("console.log(JSON.stringify({ x: 5, y: 6 }));\nconsole.log(JSON.parse('[1, 5, \"false\"]'));", None),
    ("const str = 'The quick brown fox jumps over the lazy dog.';\nconsole.log(str.split(' ')[3]);\nconsole.log(str.replace('dog', 'monkey'));", None),
    ("const date = new Date(Date.UTC(2020, 11, 20, 3, 23, 16, 738));\nconsole.log(date.toISOString());", None),
    ("label: for (let i = 0; i < 3; i++) {\n  for (let j = 0; j < 3; j++) {\n    if (i === 1 && j === 1) continue label;\n    console.log(`i = ${i}, j = ${j}`);\n  }\n}", None),
    ("const { EventEmitter } = require('node:events');\nconst myEmitter = new EventEmitter();\nmyEmitter.on('event', (a, b) => console.log('an event occurred!', a, b));\nmyEmitter.emit('event', 'a', 'b');\nundefined;", None),
    ("const path = require('node:path');\nconsole.log(path.basename('/foo/bar/baz/asdf/quux.html'));\nconsole.log(path.join('/foo', 'bar', 'baz/asdf', 'quux', '..'));", None),
    ("const util = require('node:util');\nconsole.log(util.format('%s:%s', 'foo', 'bar'));\nconsole.log(util.inspect({ a: { b: { c: {} } } }, { depth: 0 }));", None),
    ("const { setTimeout: sleep } = require('node:timers/promises');\n(async () => {\n  await sleep(100);\n  console.log('slept');\n})();\nundefined;", None),
    ("const fs = require('node:fs');\nfs.readdir('/', () => console.log('read done'));\nundefined;", None),
    ("process.nextTick(() => console.log('nextTick'));\nPromise.resolve().then(() => console.log('promise'));\nsetTimeout(() => console.log('timeout'), 0);\nconsole.log('sync');", None),
    # One kind of pending work each, and nothing else (the engine ends a
    # submission that started none at once):
    ("queueMicrotask(() => console.log('microtask'));\nundefined;", None),
    ("process.nextTick(() => console.log('tick'));\nundefined;", None),
    ("new Promise((resolve) => resolve('then')).then(console.log);\nundefined;", None),
    # The same ending in the promise (issue 42): awaited, its value shown as a
    # notebook shows it, nothing for undefined (not `Promise { undefined }`).
    ("new Promise((resolve) => resolve('then')).then(console.log)", None),
    ("const promise2 = new Promise((resolve) => setTimeout(resolve, 200, 'bar'));\n"
     "promise2.then((value) => { console.log(value); return value.length; })", "3"),
    ("Promise.reject(new Error('nope')).catch((e) => console.log('caught', e.message))", None),
    ("async function f2() {\n  console.log('in f2');\n}\nf2()", None),
    ("async function sum(a, b) {\n  await null;\n  return a + b;\n}\nsum(40, 2)", "42"),
]

SCRIPT = {
    "python": (["python3"], ".py"),
    "bash": (["bash", "--noprofile", "--norc"], ".sh"),
    "node": (["node"], ".js"),
}


def run_as_script(engine, code):
    argv, suffix = SCRIPT[engine]
    fd, path = tempfile.mkstemp(suffix=suffix)
    with os.fdopen(fd, "w") as f:
        f.write(code + "\n")
    try:
        out = subprocess.run(argv + [path], capture_output=True, text=True, timeout=30).stdout
    finally:
        os.unlink(path)
    # A TAB comes back as a TAB (the terminal records which cells it moved
    # over); a row's trailing blanks are not kept (docs/protocol.md).
    out = out[:-1] if out.endswith("\n") else out  # the reply drops the last newline only
    return "\n".join(line.rstrip(" ") for line in out.split("\n"))


class Snippets(unittest.TestCase):
    def check(self, engine, table):
        with Daemon(engine) as d:
            for code, value in table:
                with self.subTest(engine=engine, code=code):
                    expected = run_as_script(engine, code)
                    if value:
                        expected = (expected + "\n" + value) if expected else value
                    reply = d.ask(code, timeout_ms=20000)
                    self.assertTrue(reply["ok"], reply)
                    self.assertEqual(reply["text"], expected)

    def test_python(self):
        self.check("python", PYTHON)

    def test_bash(self):
        self.check("bash", BASH)

    def test_node(self):
        self.check("node", NODE)

    def test_at_least_thirty(self):
        self.assertGreaterEqual(len(PYTHON) + len(BASH) + len(NODE), 30)


class NeverStuck(unittest.TestCase):
    def test_node_output_without_a_final_newline(self):
        with Daemon("node") as d:
            self.assertEqual(d.ask("process.stdout.write('no newline'); undefined")["text"], "no newline")
            self.assertEqual(d.ask("1+1")["text"], "2")

    def test_exit_ends_the_code_not_the_session(self):
        with Daemon("python") as d:
            self.assertTrue(d.ask("kept = 5")["ok"])
            for code, status, text in (("import sys\nprint('bye')\nsys.exit(3)", 3, "bye"),
                                       ("import sys; sys.exit()", 0, ""),
                                       ("import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n"
                                        "        self.assertEqual(1, 2)\nunittest.main(argv=['t'])", 1,
                                        "FAILED (failures=1)")):
                reply = d.ask(code)
                self.assertEqual((reply["ok"], reply["kind"], reply["exit_code"]), (False, "exited", status))
                self.assertTrue(reply["text"].endswith(text), reply["text"])
                self.assertEqual(d.ask("kept")["text"], "5")
            self.assertEqual(d.request("status")["state"], "ready")
        with Daemon("node") as d:
            self.assertTrue(d.ask("let kept = 5")["ok"])
            for code, status, text in (("console.log('bye');\nprocess.exit(3)", 3, "bye"),
                                       ("function f() { process.exit(); }\nf()", 0, ""),
                                       ("await new Promise((r) => setTimeout(r, 50));\nprocess.exit(7)", 7, "")):
                reply = d.ask(code)
                self.assertEqual((reply["ok"], reply["kind"], reply["exit_code"], reply["text"]),
                                 (False, "exited", status, text))
                self.assertEqual(d.ask("kept")["text"], "5")

    def test_the_python_terminal_shows_the_code_as_typed(self):
        with Daemon("python") as d:
            self.assertEqual(d.ask("x = 1")["text"], "")  # (printing nothing, it ends no row)
            self.assertEqual(d.ask("for i in range(2):\n    print(i)")["text"], "0\n1")
            self.assertEqual(d.ask("'é中文 ' * 2")["text"], "'é中文 é中文 '")
            lines = [l for l in d.request("screen")["lines"] if l]
            self.assertEqual(lines, [">>> x = 1", ">>> for i in range(2):", "...     print(i)", "0", "1",
                                     ">>> 'é中文 ' * 2", "'é中文 é中文 '", ">>>"])

    def test_the_node_terminal_shows_the_code_as_typed(self):
        with Daemon("node") as d:
            self.assertEqual(d.ask("for (let i = 0; i < 2; i++) {\n  console.log(i);\n}")["text"], "0\n1")
            self.assertEqual(d.ask("'é中文 '.repeat(2)")["text"], "'é中文 é中文 '")
            lines = [l for l in d.request("screen")["lines"] if l]
            prompt = "> "
            self.assertEqual(lines[-1], ">")
            self.assertEqual(lines, [prompt + "for (let i = 0; i < 2; i++) {", "...   console.log(i);", "... }", "0", "1",
                                     prompt + "'é中文 '.repeat(2)", "'é中文 é中文 '", lines[-1]])

    def test_tabs_survive_in_a_raw_sessions_scrollback(self):
        with Daemon("--", "sh", "-c", "printf 'id\\tname\\n7\\tada\\n'; sleep 30") as d:
            d.request("expect", pattern="ada")
            lines = d.request("scrollback")["lines"]
            self.assertEqual(lines[:2], ["id\tname", "7\tada"])
            # The screen shows what a terminal shows: spaces.
            self.assertEqual(d.request("screen")["lines"][:2], ["id      name", "7       ada"])

    def test_node_output_after_the_prompt_never_reaches_another_reply(self):
        with Daemon("node") as d:
            self.assertEqual(d.ask("Promise.resolve(1200).then(console.log)")["ok"], True)
            for _ in range(3):
                self.assertEqual(d.ask("1+1")["text"], "2")

    def test_node_late_error_never_reaches_another_reply(self):
        # An earlier ask's timer throws while the next one runs: the REPL's
        # report (and fresh prompt) must neither enter nor end that reply.
        later = "setTimeout(() => console.log('done'), 400);\nconsole.log('start');\nundefined"
        with Daemon("node", env={"TUIDRIVER_REPL_WAIT_MS": "1000"}) as d:
            d.request("subscribe", events=["output"])
            self.assertTrue(d.ask("setTimeout(() => { throw new Error('late') }, 1200); 1")["ok"])
            self.assertEqual(d.ask(later)["text"], run_as_script("node", later))
            self.assertEqual(d.ask("1+1")["text"], "2")
            output = "".join(m.get("data", "") for m in d.events if m.get("type") == "output")
            self.assertIn("Uncaught Error: late", output)

    def test_a_reply_ends_where_its_output_did_however_late_the_daemon_reads(self):
        # Issue 42: on a loaded machine the daemon read the screen only after
        # the prompt and the late output shown above a fresh prompt since,
        # and took that output for the reply's last rows. Stopping the daemon
        # while the code runs makes it read that late every time.
        cases = [
            ("python", "import threading, time\nprint('start')\n"
             "threading.Thread(target=lambda: (time.sleep(1.6), print('LATE')), daemon=True).start()\n"
             "time.sleep(1)\nprint('mine', end='')", "start\nmine"),
            ("node", "console.log('start');\nsetTimeout(() => console.log('LATE'), 1700);\n"
             "setTimeout(() => process.stdout.write('mine'), 1000);\nundefined", "start\nmine"),
        ]
        for engine, code, reply in cases:
            with self.subTest(engine=engine), Daemon(engine, env={"TUIDRIVER_REPL_WAIT_MS": "1300"}) as d:
                d.request("subscribe", events=["output"])
                d.send({"id": "late", "type": "ask", "prompt": code, "timeout_ms": 20000})
                d.wait_for(lambda m: m.get("type") == "output" and "start" in m.get("data", ""), 20)
                os.kill(d.proc.pid, signal.SIGSTOP)
                try:
                    time.sleep(3)  # the code ends; the late line shows above a fresh prompt
                finally:
                    os.kill(d.proc.pid, signal.SIGCONT)
                r = d.wait_for(lambda m: m.get("id") == "late" and m.get("type") == "reply", 20)
                self.assertEqual((r["ok"], r["text"]), (True, reply))
                self.assertIn("LATE", "\n".join(d.request("scrollback")["lines"]))
                self.assertEqual(d.ask("1+1")["text"], "2")

    def test_node_top_level_await(self):
        with Daemon("node") as d:
            self.assertEqual(d.ask("await new Promise((r) => setTimeout(() => r(5), 100))")["text"], "5")

    def test_background_output_after_the_prompt(self):
        cases = [
            ("python", "import threading; threading.Timer(0.2, lambda: print('bg log')).start()", "1+1", "2"),
            ("node", "setTimeout(() => console.log('bg log'), 200); 0", "1+1", "2"),
            ("bash", "(sleep 0.2; echo bg log) &", "echo $((1+1))", "2"),
        ]
        for engine, background, question, answer in cases:
            with self.subTest(engine=engine), Daemon(engine) as d:
                self.assertTrue(d.ask(background)["ok"])
                time.sleep(0.8)  # the output lands while no ask runs
                self.assertEqual(d.ask(question, timeout_ms=10000)["text"], answer)
                self.assertEqual(d.ask(question, timeout_ms=10000)["text"], answer)
                self.assertIn("bg log", "\n".join(d.request("scrollback")["lines"]))

    @unittest.skipIf(os.environ.get("TUIDRIVER_FOREIGN_CHILDREN"),
                     "the daemon's question probe cannot read another architecture's syscalls (scripts/test-linux-arm64.sh)")
    def test_questions_are_reported_within_the_question_window(self):
        cases = [
            ("python", "print('hello'); x = input('Your name? ')", "hello\nYour name? ", "Your name?"),
            ("bash", "echo hello; read -p 'Your name? ' n", "hello\nYour name? ", "Your name?"),
        ]
        for engine, code, text, question in cases:
            with self.subTest(engine=engine), Daemon(engine) as d:
                # The ask's own timeout is long: the reply must come from the
                # question window, well before it.
                reply = d.request("ask", wait=10, prompt=code, timeout_ms=60000)
                self.assertEqual((reply["kind"], reply["text"], reply["question"]), ("needs_input", text, question))
                # The next ask brings the REPL back to a fresh prompt first.
                self.assertEqual(d.ask("print(6*7)" if engine == "python" else "echo 42", timeout_ms=10000)["text"], "42")

    def test_continuation_then_the_next_ask_works(self):
        with Daemon("bash") as d:
            reply = d.ask('echo "unterminated', timeout_ms=10000)
            self.assertEqual(reply["kind"], "needs_input")
            self.assertEqual(d.ask("echo ok", timeout_ms=10000)["text"], "ok")

    def test_an_interrupt_held_at_the_continuation_prompt_is_flushed(self):
        # The REPL shows no reaction to the interrupt until its next line:
        # the daemon interrupts once more, then sends an empty line.
        fd, path = tempfile.mkstemp(suffix=".json")
        with os.fdopen(fd, "w") as f:
            json.dump({"command": [sys.executable, HOLDING_REPL],
                       "prompt": {"pattern": "^toy> $", "scope": "cursor_line"},
                       "continuation_prompt": {"pattern": "^toy\\.\\.\\. $", "scope": "cursor_line"},
                       "submit": {"mode": "lines"}, "interrupt_keys": ["C-c"]}, f)
        try:
            with Daemon("--engine-file", path) as d:
                self.assertEqual(d.ask('echo "open', timeout_ms=10000)["kind"], "needs_input")
                self.assertEqual(d.ask("echo ok", timeout_ms=20000)["text"], "ok")
                self.assertEqual(d.ask("echo again", timeout_ms=10000)["text"], "again")
        finally:
            os.unlink(path)

    def test_an_unclosed_bracket_is_a_syntax_error_as_in_a_script(self):
        # Whole-program engines never leave a continuation prompt behind.
        for engine, expected in (("python", "SyntaxError: '(' was never closed"),
                                 ("node", "Uncaught SyntaxError: Unexpected end of input")):
            with self.subTest(engine=engine), Daemon(engine) as d:
                reply = d.ask("x = (", timeout_ms=10000)
                self.assertTrue(reply["ok"])
                self.assertTrue(reply["text"].endswith(expected), reply["text"])
                self.assertEqual(d.ask("1+1")["text"], "2")

    def test_interrupt_a_busy_loop(self):
        for engine, loop, after in (("node", "while (true) {}", "1+1"), ("python", "while True: pass", "1+1"),
                                    ("bash", "while true; do :; done", "echo 2")):
            with self.subTest(engine=engine), Daemon(engine) as d:
                self.assertEqual(d.ask(loop, timeout_ms=1000)["kind"], "timeout")
                self.assertEqual(d.ask(after, timeout_ms=10000)["text"], "2")

    def test_output_that_looks_like_a_prompt_does_not_end_the_ask(self):
        # The prompts' text, printed (even right after a mark of another
        # session's token), is output: only the session's own mark makes a prompt.
        with Daemon("bash") as d:
            reply = d.ask('printf "\\nbash-5.2$ \\n# \\n\\033]7704;abcdef\\007$ "; sleep 1; echo after', timeout_ms=10000)
            # (Rows lose their trailing spaces, as in every reply.)
            self.assertEqual(reply["text"], "\nbash-5.2$\n#\n$ after")
            self.assertEqual(d.ask("echo next")["text"], "next")
        fakes = (("python", "print('x\\n>>> ', end='', flush=True); import time; time.sleep(1); print('after')", "x\n>>> after"),
                 # (node's `> ` at the cursor is also the shape of a question, after 1 s of quiet)
                 ("node", "process.stdout.write('x\\n> '); await new Promise((r) => setTimeout(r, 300)); console.log('after')",
                  "x\n> after"))
        for engine, fake, expected in fakes:
            with self.subTest(engine=engine), Daemon(engine) as d:
                self.assertEqual(d.ask(fake, timeout_ms=10000)["text"], expected)
                self.assertEqual(d.ask("6*7")["text"], "42")



@unittest.skipIf(os.environ.get("TUIDRIVER_FOREIGN_CHILDREN"),
                 "whether the REPL waits on the terminal comes from the daemon's probe, which cannot read "
                 "another architecture's syscalls (scripts/test-linux-arm64.sh)")
class UnfinishedInput(unittest.TestCase):
    """A person types into the terminal the asks go through (a VS Code panel)
    and leaves a line without its Enter, or a block begun: each ask fails at
    once with unfinished_input, the person's input stays as it was, and once
    it is finished or cleared, asks run again (docs/protocol.md)."""

    def cursor_row(self, d):
        s = d.request("screen")
        return s["lines"][s["cursor"]["row"]]

    def fails_at_once(self, d, ask, shown):
        for _ in range(2):  # each ask, not only the first
            start = time.monotonic()
            r = d.ask(ask, timeout_ms=30000)
            self.assertEqual((r["ok"], r["kind"]), (False, "unfinished_input"), r)
            self.assertLess(time.monotonic() - start, 5)  # not its 30 s
            self.assertIn(shown, r["error"])

    def check(self, engine, ask, answer, line, prompt, block, more, block_end):
        with Daemon(engine) as d:
            self.assertEqual(d.ask(ask)["text"], answer)
            d.request("send", data=line)
            d.wait_screen(lambda s: s["lines"][s["cursor"]["row"]] == prompt + line)
            self.fails_at_once(d, ask, prompt + line)
            self.assertEqual(self.cursor_row(d), prompt + line)  # not typed over, not cleared
            d.request("keys", keys=["C-u"])  # the person clears it
            self.assertEqual(d.ask(ask)["text"], answer)
            d.request("send", data=block)
            d.wait_screen(lambda s: s["lines"][s["cursor"]["row"]] == more.rstrip())
            self.fails_at_once(d, ask, more)
            self.assertEqual(self.cursor_row(d), more.rstrip())
            d.request("send", data=block_end)  # the person finishes the block
            self.assertEqual(d.ask(ask)["text"], answer)

    def test_python(self):
        self.check("python", "6*7", "42", "abc", ">>> ", "for i in range(2):\r", "... ", "    print(i)\r\r")

    def test_bash(self):
        d_prompt = subprocess.run(["bash", "--norc", "-c", 'echo "bash-${BASH_VERSINFO[0]}.${BASH_VERSINFO[1]}"'],
                                  capture_output=True, text=True).stdout.strip()
        sign = "#" if os.geteuid() == 0 else "$"
        self.check("bash", "echo 42", "42", "ech", d_prompt + sign + " ", "for i in 1 2; do\r", "> ",
                   "echo $i; done\r")

    def test_node(self):
        self.check("node", "6*7", "42", "abc", "> ", "function f() {\r", "... ", "}\r")


if __name__ == "__main__":
    unittest.main()
