import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { printable, terminalSafe } from '../../src/core/printable'
import { readAsset } from '../support/assets'
import { runOnDisk } from '../support/cli'
import { rawHeader } from '../support/md2-bytes'

// A file's names are the author's bytes: these retitle the terminal (OSC 0 … BEL), clear it (CSI 2J), forge a
// line ("\nFORGED"), return the cursor (CR) and open an 8-bit CSI (0x9b).
const HOSTILE_SKIN = '\x1b]0;pwned\x07\x1b[2J\nFORGED skin\r\x9b31m.pcx'
const HOSTILE_FRAME = '\x1b[2J\nFORGED\x07'

/** Ogro's weapon (a real Quake II model, 199 frames, one skin) with its skin name and every frame name hostile. */
function hostileModel(): Uint8Array {
  const bytes = readAsset('quake2/ogro/weapon.md2').slice()
  const header = rawHeader(bytes)
  const put = (offset: number, size: number, text: string) => {
    bytes.fill(0, offset, offset + size)
    for (let i = 0; i < text.length; i++) bytes[offset + i] = text.charCodeAt(i)
  }
  put(header.offsetSkins, 64, HOSTILE_SKIN)
  for (let f = 0; f < header.numFrames; f++) put(header.offsetFrames + f * header.frameSize + 24, 16, HOSTILE_FRAME)
  return bytes
}

const dir = mkdtempSync(join(tmpdir(), 'md2-terminal-'))
const model = join(dir, 'hostile.md2')
writeFileSync(model, hostileModel())
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Every byte a terminal would be sent: none may be a control character other than the lines' own newlines. */
function expectTerminalSafe(output: string): void {
  const bytes = new TextEncoder().encode(output)
  const controls = [...bytes].filter((byte) => (byte < 0x20 && byte !== 0x0a) || byte === 0x7f)
  expect(controls).toEqual([])
  // 0x9b in UTF-8 is C2 9B: no C1 control is sent either.
  expect([...output].filter((char) => char >= '\x80' && char <= '\x9f')).toEqual([])
  // No line of output begins with what the file wrote after a newline.
  expect(output.split('\n').filter((line) => line.startsWith('FORGED'))).toEqual([])
}

describe('names from a file never reach the terminal raw', () => {
  it('the parsed model really holds the hostile names (the test reads what it means to)', async () => {
    const { stdout } = await runOnDisk(['inspect', model, '--json'])
    const report = JSON.parse(stdout) as { skins: string[]; frameNames: string[] }
    expect(report.skins).toEqual([HOSTILE_SKIN])
    expect(report.frameNames[0]).toBe(HOSTILE_FRAME)
  })

  it('inspect prints the skin, animation and warnings escaped', async () => {
    const { code, stdout, stderr } = await runOnDisk(['inspect', model])
    expect(code).toBe(0)
    expectTerminalSafe(stdout + stderr)
    expect(stdout).toContain('  \\x1b]0;pwned\\x07\\x1b[2J\\nFORGED skin\\r\\u009b31m.pcx\n')
    // The frames' shared name, quoted in a warning and named as an animation, is escaped too.
    expect(stdout).toContain('share "\\x1b[2J\\nFORGED"')
  })

  it('inspect --json stays JSON: the C1 control is escaped as JSON reads it', async () => {
    const { stdout } = await runOnDisk(['inspect', model, '--json'])
    expectTerminalSafe(stdout)
    expect(stdout).toContain('\\u009b31m')
  })

  it('validate and rebuild print the warnings escaped', async () => {
    const validated = await runOnDisk(['validate', model])
    expect(validated.stdout).toMatch(/OK \(\d+ warning/)
    expectTerminalSafe(validated.stdout + validated.stderr)
    const rebuilt = await runOnDisk(['rebuild', model, '-o', join(dir, 'rebuilt.md2')])
    expect(rebuilt.code).toBe(0)
    expect(rebuilt.stderr).toContain('warning: ')
    expectTerminalSafe(rebuilt.stdout + rebuilt.stderr)
  })

  it('convert says nothing raw either (the net under every command)', async () => {
    const { stdout, stderr } = await runOnDisk(['convert', model, join(dir, 'out.glb')])
    expect(stderr).toContain('\\x1b')
    // No control byte, whatever the command's own wording does with the names.
    expect(new TextEncoder().encode(stdout + stderr).filter((byte) => byte < 0x20 && byte !== 0x0a)).toEqual(new Uint8Array())
  })
})

describe('printable', () => {
  it('escapes C0, DEL, C1 and the line and direction controls, and nothing else', () => {
    expect(printable('a\x1b[2J\n\t\r\x00\x7f\x9b b')).toBe('a\\x1b[2J\\n\\t\\r\\x00\\x7f\\u009b b')
    expect(printable('evil\u202eexe.pcx\u2028')).toBe('evil\\u202eexe.pcx\\u2028')
    expect(printable('players/ogro/grok.pcx — ü')).toBe('players/ogro/grok.pcx — ü')
  })

  it('terminalSafe keeps the newlines and tabs that lay out output', () => {
    expect(terminalSafe('  a\tb\n\x1b]0;x\x07\n')).toBe('  a\tb\n\\x1b]0;x\\x07\n')
  })
})
