"""A toy CLI whose first start in a home is not safe beside another, as
opencode's and Kilo's are: the first start makes $HOME/store.db and takes
MIGRATE_SECONDS (default 2) to migrate it; a start that finds the store
while a migration is under way fails as Kilo does ("EffectDrizzleQueryError").
Then it is a prompt (`cli> `) that echoes lines. test_start_alone.py uses it."""
import os
import sys
import time

store = os.path.join(os.environ["HOME"], "store.db")
migrating = store + ".migrating"
if os.path.exists(store) and not os.path.exists(migrating):
    print("store found")
else:
    try:
        os.close(os.open(migrating, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        print("query failed: the store is being migrated by another start")
        sys.exit(1)
    open(store, "w").close()
    time.sleep(float(os.environ.get("MIGRATE_SECONDS", "2")))
    os.unlink(migrating)
    print("store made")
while True:
    sys.stdout.write("cli> ")
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        break
    print(line.strip())
