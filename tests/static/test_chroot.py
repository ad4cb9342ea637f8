"""The shipped linux-x64 binary on "any Linux": a chroot holding nothing but
that binary, the engines and Debian's busybox-static (no libc, no loader, no
/etc; the kernel's /proc and a devpts instance are mounted). Run by
scripts/test.sh after `npm run build` put the shipped file in place.

TUIDRIVER_SHIPPED_BIN names the binary (default npm/tuidriver-linux-x64/bin/
tuidriver). Needs root (chroot, mount): the test re-runs itself in its own
mount namespace (unshare -m), so nothing stays mounted when it ends.
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
from tuiclient import Daemon

SHIPPED = os.environ.get("TUIDRIVER_SHIPPED_BIN",
                         os.path.join(ROOT, "npm", "tuidriver-linux-x64", "bin", "tuidriver"))
CHROOT = shutil.which("chroot") or "/usr/sbin/chroot"
BUSYBOX = "/bin/busybox"  # Debian's busybox-static (scripts/deps.sh)
ENV = {"TUIDRIVER_ENGINES": "/engines", "HOME": "/", "PATH": "/bin", "TERM": "xterm-256color"}


def program_headers(path):
    """The p_type of each program header of a 64-bit little-endian ELF file."""
    with open(path, "rb") as f:
        head = f.read(64)
        if head[:4] != b"\x7fELF" or head[4] != 2:
            raise AssertionError("%s is not a 64-bit ELF file" % path)
        phoff, = struct.unpack_from("<Q", head, 0x20)
        phentsize, phnum = struct.unpack_from("<HH", head, 0x36)
        types = []
        for i in range(phnum):
            f.seek(phoff + i * phentsize)
            types.append(struct.unpack("<I", f.read(4))[0])
        return types


def make_root(root):
    """The chroot: /tuidriver, /engines, /bin/busybox and its applet links,
    /dev/null, a private devpts, /proc."""
    shutil.copy2(SHIPPED, os.path.join(root, "tuidriver"))
    shutil.copytree(os.path.join(ROOT, "engines"), os.path.join(root, "engines"))
    shutil.copy2(os.path.join(HERE, "busybox-sh.json"), os.path.join(root, "busybox-sh.json"))
    os.makedirs(os.path.join(root, "bin"))
    shutil.copy2(BUSYBOX, os.path.join(root, "bin", "busybox"))
    for d in ("dev/pts", "proc", "tmp"):
        os.makedirs(os.path.join(root, d))
    os.mknod(os.path.join(root, "dev", "null"), 0o666 | 0o020000, os.makedev(1, 3))
    os.chmod(os.path.join(root, "dev", "null"), 0o666)
    os.symlink("pts/ptmx", os.path.join(root, "dev", "ptmx"))
    subprocess.run(["mount", "-t", "devpts", "-o", "newinstance,ptmxmode=0666,mode=0620",
                    "devpts", os.path.join(root, "dev", "pts")], check=True)
    subprocess.run(["mount", "-t", "proc", "proc", os.path.join(root, "proc")], check=True)
    subprocess.run([CHROOT, root, "/bin/busybox", "--install", "-s", "/bin"], check=True)


def remove_root(root):
    """Unmounts what make_root mounted (a mount left behind would show in the
    machine's namespace where mounts are shared) and removes the chroot."""
    for m in ("proc", "dev/pts"):
        path = os.path.join(root, m)
        if os.path.ismount(path):
            subprocess.run(["umount", path], check=True)
    shutil.rmtree(root)


class AnyLinux(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.root = tempfile.mkdtemp(prefix="tuidriver-chroot-")
        try:
            make_root(cls.root)
        except BaseException:
            remove_root(cls.root)  # tearDownClass does not run when this fails
            raise
        cls.launcher = [CHROOT, cls.root, "/tuidriver"]

    @classmethod
    def tearDownClass(cls):
        remove_root(cls.root)

    def daemon(self, *args):
        return Daemon(*args, env=ENV, launcher=self.launcher)

    def test_the_binary_is_fully_static(self):
        types = program_headers(SHIPPED)
        self.assertNotIn(3, types, "PT_INTERP: the binary needs a loader")
        self.assertNotIn(2, types, "PT_DYNAMIC: the binary needs shared libraries")

    def test_the_root_holds_no_libc(self):
        self.assertEqual(sorted(os.listdir(self.root)),
                         ["bin", "busybox-sh.json", "dev", "engines", "proc", "tmp", "tuidriver"])
        bins = {n for n in os.listdir(os.path.join(self.root, "bin"))
                if not os.path.islink(os.path.join(self.root, "bin", n))}
        self.assertEqual(bins, {"busybox"})
        self.assertEqual(program_headers(os.path.join(self.root, "bin", "busybox")).count(3), 0)

    def test_raw_busybox_sh(self):
        with self.daemon("--cols", "80", "--rows", "24", "--", "/bin/sh") as d:
            d.send({"type": "send", "data": "printf 'got:%s:%d\\n' word 42\r"})
            m = d.request("expect", pattern="got:word:42", timeout_ms=20000)
            self.assertTrue(m["ok"], m)
            r = d.request("resize", cols=100, rows=30)
            self.assertEqual((r["cols"], r["rows"]), (100, 30))
            d.send({"type": "send", "data": "stty size\r"})
            m = d.request("expect", pattern="(?m)^30 100$", timeout_ms=20000)
            self.assertTrue(m["ok"], m)
            s = d.request("screen")
            self.assertEqual((s["cols"], s["rows"]), (100, 30))
            self.assertIn("got:word:42", s["lines"])
            self.assertIn("30 100", s["lines"])
            d.send({"type": "send", "data": "exit 7\r"})
            e = d.wait_for(lambda m: m.get("type") == "exit", 20)
            self.assertEqual((e["exit_code"], e["signal"]), (7, None))

    def test_ask_through_an_engine_file(self):
        with self.daemon("busybox-sh", "--engine-file", "/busybox-sh.json", "--cwd", "/tmp") as d:
            r = d.ask("echo hello; printf '%s\\n' one two", timeout_ms=30000)
            self.assertTrue(r["ok"], r)
            self.assertEqual(r["text"], "hello\none\ntwo")
            r = d.ask("pwd; ls /", timeout_ms=30000)
            self.assertTrue(r["ok"], r)
            self.assertEqual(r["text"].split(), ["/tmp", "bin", "busybox-sh.json", "dev", "engines",
                                                 "proc", "tmp", "tuidriver"])
            r = d.close()
            self.assertTrue(r["ok"], r)

    def test_shim_spawn_from_node_outside(self):
        # The shim takes one executable: a wrapper outside the chroot starts the
        # daemon through chroot. Node, the shim and the wrapper are the host's.
        wrapper = os.path.join(tempfile.mkdtemp(), "tuidriver-chroot")
        with open(wrapper, "w") as f:
            f.write('#!/bin/sh\nexec %s %s /tuidriver "$@"\n' % (CHROOT, self.root))
        os.chmod(wrapper, 0o755)
        script = """
import { Session } from %s;
const s = await Session.spawn('busybox-sh', { binaryPath: %s, engineFile: '/busybox-sh.json',
  env: %s, cols: 90, rows: 20 });
const text = await s.ask('echo from-node; cat /proc/self/status | grep -c PPid');
await s.resize(70, 15);
const screen = await s.screen();
const exit = await s.close();
console.log(JSON.stringify({ text, cols: screen.cols, rows: screen.rows, exit }));
""" % (json.dumps("file://" + os.path.join(ROOT, "dist", "index.mjs")), json.dumps(wrapper),
       json.dumps(ENV))
        p = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True,
                           text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        out = json.loads(p.stdout.strip().splitlines()[-1])
        self.assertEqual(out["text"], "from-node\n1")
        self.assertEqual((out["cols"], out["rows"]), (70, 15))


def namespace_propagation():
    """"private" keeps the test's mounts out of the machine's namespace. It
    needs "/" to be a mount point, which it is not inside a plain chroot (a
    debootstrap'd fresh machine): there the mounts stay shared, so they show
    outside while the test runs and go with tearDownClass's umounts."""
    probe = subprocess.run(["unshare", "--mount", "--propagation", "private", "true"],
                           capture_output=True)
    return "private" if probe.returncode == 0 else "unchanged"


def main():
    if os.geteuid() != 0:
        sys.exit("test_chroot.py needs root (chroot, mount)")
    if not os.path.exists(SHIPPED):
        sys.exit("no shipped binary at %s (npm run build puts it there)" % SHIPPED)
    if not os.path.exists(BUSYBOX):
        sys.exit("no %s: apt-get install busybox-static (scripts/deps.sh)" % BUSYBOX)
    if os.environ.get("TUIDRIVER_CHROOT_NS") != "1":
        env = dict(os.environ, TUIDRIVER_CHROOT_NS="1")
        os.execvpe("unshare", ["unshare", "--mount", "--propagation", namespace_propagation(),
                               sys.executable, *sys.argv], env)
    unittest.main()


if __name__ == "__main__":
    main()
