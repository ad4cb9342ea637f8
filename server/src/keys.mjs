// Key names for the `keys` tool and route: tmux's names, and the aliases xdotool and
// Playwright users type (Return, BackSpace, ArrowUp, Control+c), turned into the tmux
// names the daemon parses. Anything else is refused: text goes through `send`, never
// through `keys` (the daemon alone would type an unknown word as text).

/** Every accepted base name (lower case) -> the daemon's (tmux) name. */
const BASES = new Map([
  ...['Enter', 'Escape', 'Tab', 'BTab', 'BSpace', 'Space', 'Up', 'Down', 'Left', 'Right', 'Home', 'End',
    'Insert', 'Delete', 'PageUp', 'PageDown', 'KPEnter'].map((n) => [n.toLowerCase(), n]),
  ...Array.from({ length: 12 }, (_, i) => [`f${i + 1}`, `F${i + 1}`]),
  ...Array.from({ length: 10 }, (_, i) => [`kp${i}`, `KP${i}`]),
  ...['/', '*', '-', '+', '.'].map((c) => [`kp${c}`, `KP${c}`]),
  // tmux's own aliases
  ['esc', 'Escape'], ['backspace', 'BSpace'], ['ic', 'Insert'], ['dc', 'Delete'], ['pgup', 'PageUp'],
  ['ppage', 'PageUp'], ['pgdn', 'PageDown'], ['npage', 'PageDown'],
  // xdotool (X keysyms) and Playwright
  ['return', 'Enter'], ['kp_enter', 'KPEnter'], ['escape', 'Escape'], ['del', 'Delete'],
  ['arrowup', 'Up'], ['arrowdown', 'Down'], ['arrowleft', 'Left'], ['arrowright', 'Right'],
  ['page_up', 'PageUp'], ['prior', 'PageUp'], ['page_down', 'PageDown'], ['next', 'PageDown'],
  ['iso_left_tab', 'BTab'],
]);

/** Modifier spellings (lower case, with their separator) -> tmux's prefix. */
const MODIFIERS = [
  ['c-', 'C-'], ['m-', 'M-'], ['s-', 'S-'],
  ['ctrl-', 'C-'], ['alt-', 'M-'], ['meta-', 'M-'], ['shift-', 'S-'],
  ['ctrl+', 'C-'], ['control+', 'C-'], ['alt+', 'M-'], ['meta+', 'M-'], ['shift+', 'S-'],
];

export const ACCEPTED_KEYS = 'Accepted: Enter (Return), Escape (Esc), Tab, BTab, BSpace (BackSpace), Space, Up, Down, Left, Right '
  + '(ArrowUp...), Home, End, PageUp (PgUp, Page_Up, Prior), PageDown (PgDn, Page_Down, Next), Insert, Delete (Del), F1-F12, '
  + 'KP0-KP9, KPEnter, or one character; with modifiers C-, M-, S- (Ctrl-, Alt-, Shift-; Control+, Ctrl+, Alt+, Shift+, Meta+) '
  + 'as in C-c, M-x, S-Tab, Control+c, or ^C. Text goes through send';

/** One key as the daemon's name, or null when it is no key. */
export function keyName(key) {
  if (typeof key !== 'string' || key === '') return null;
  if (/^\^.$/u.test(key)) return `C-${key[1].toLowerCase()}`;
  let prefix = '';
  let rest = key;
  for (let more = true; more;) {
    more = false;
    for (const [spelt, tmux] of MODIFIERS) {
      if (rest.length > spelt.length && rest.slice(0, spelt.length).toLowerCase() === spelt) {
        if (!prefix.includes(tmux)) prefix += tmux;
        rest = rest.slice(spelt.length);
        more = true;
        break;
      }
    }
  }
  const base = BASES.get(rest.toLowerCase()) ?? ([...rest].length === 1 ? rest : null);
  return base === null ? null : prefix + base;
}

/**
 * The keys as the daemon's names, or an error message naming the first that is no key
 * (nothing is sent then).
 */
export function keyNames(keys) {
  const out = [];
  for (const k of keys) {
    const name = keyName(k);
    if (name === null) return { error: `'${k}' is not a key name. ${ACCEPTED_KEYS}` };
    out.push(name);
  }
  return { names: out };
}
