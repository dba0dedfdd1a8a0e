/**
 * Names read from a file (skin names, frame names, clip names) are bytes the file's author chose: printed raw,
 * an `ESC ]0;…BEL` retitles the reader's terminal, `ESC[2J` clears it and a newline forges a line of output.
 * `printable` is how every such name, and every one-line message quoting one, is shown.
 */

/** C0 controls, DEL, C1 controls, and the Unicode line separators and direction overrides that reorder text. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNPRINTABLE = /[\x00-\x1f\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g
/** The same, less the newline and tab that legitimately lay out a command's output. */
// eslint-disable-next-line no-control-regex -- as above
const UNPRINTABLE_IN_OUTPUT = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' }

function escaped(char: string): string {
  const named = NAMED[char]
  if (named) return named
  const code = char.charCodeAt(0)
  // \xNN for the byte-sized ones, as a reader of the file's bytes knows them; \uNNNN past a byte (also valid JSON).
  return code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
}

/** `text` on one line with every control character escaped (`ESC` as `\x1b`, a newline as `\n`). */
export function printable(text: string): string {
  return String(text).replace(UNPRINTABLE, escaped)
}

/**
 * A command's output made safe for a terminal: every control character escaped except the newlines and tabs
 * that lay it out. A safety net under `printable`, which also escapes a name's own newlines.
 */
export function terminalSafe(text: string): string {
  return text.replace(UNPRINTABLE_IN_OUTPUT, escaped)
}
