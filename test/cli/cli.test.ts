import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli, USAGE } from '../../src/cli/main'
import type { InspectReport } from '../../src/cli/inspect'
import { buildGlCommands } from '../../src/core/format/glCommands'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { ALL_MD2, ASSETS_DIR, readAsset } from '../support/assets'

/** Runs the CLI in-process: files under assets/ by their relative path, plus in-memory ones. */
async function run(argv: string[], files: Record<string, Uint8Array> = {}) {
  let stdout = ''
  let stderr = ''
  const written = new Map<string, Uint8Array>()
  const code = await runCli(argv, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    readFile: (path) => {
      const memory = files[path]
      if (memory) return memory
      if (path.startsWith('missing'))
        throw Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: 'ENOENT' })
      return readAsset(path)
    },
    writeFile: (path, data) => {
      if (path.startsWith('/readonly/')) throw Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: 'EACCES' })
      written.set(path, data)
    },
    exists: (path) => path in files || written.has(path),
    entryAt: (path) => (path in files || written.has(path) ? 'file' : undefined),
    makeFolder: () => {},
    isDirectory: () => false,
    rename: (from, to) => {
      written.set(to, written.get(from)!)
      written.delete(from)
    },
    remove: (path) => void written.delete(path),
    resolve: (path) => (path.startsWith('/') ? path : `/work/${path}`),
    realPath: (path) => (path.startsWith('/') ? path : `/work/${path}`),
  })
  // No stack trace, whatever happened.
  expect(stdout + stderr).not.toMatch(/\n\s+at /)
  return { code, stdout, stderr, written }
}

/** Damaged copies of a real file. */
function damaged(): Record<string, Uint8Array> {
  const good = readAsset('quake2/sydney/weapon.md2')
  const truncated = good.slice(0, 500)
  const badMagic = good.slice()
  badMagic.set([0x50, 0x4b, 0x03, 0x04], 0) // a zip
  const badVersion = good.slice()
  new DataView(badVersion.buffer).setInt32(4, 6, true)
  const badIndex = good.slice()
  const view = new DataView(badIndex.buffer)
  view.setUint16(view.getInt32(52, true) + 2, 9999, true) // ofs_tris: triangle 0, second xyz index
  return { 'truncated.md2': truncated, 'zip.md2': badMagic, 'v6.md2': badVersion, 'badindex.md2': badIndex, 'empty.md2': new Uint8Array(0) }
}

describe('CLI usage', () => {
  it('prints help with --help, -h or help, exit 0', async () => {
    for (const argv of [['--help'], ['-h'], ['help'], ['inspect', '--help']]) {
      const { code, stdout } = await run(argv)
      expect(code).toBe(0)
      expect(stdout).toBe(USAGE)
    }
  })

  it('answers a wrong command line with the usage, exit 2', async () => {
    const cases: [string[], RegExp][] = [
      [[], /no command given/],
      [['frobnicate', 'x.md2'], /unknown command "frobnicate"/],
      [['convert', 'x.md2'], /convert needs IN and OUT/],
      [['convert', 'x.md2', 'y.md2'], /not \.md2 into \.md2/],
      [['convert', 'x.fbx', 'y.md2'], /convert reads \.md2, \.glb, \.gltf or \.obj/],
      [['pak', 'list'], /pak list needs an ARCHIVE/],
      [['pak', 'squash', 'a.pak'], /unknown pak action "squash"/],
      [['pak', 'add', 'a.tar', 'x.md2'], /\.pak, \.pk3 or \.zip/],
      [['inspect', '--yaml', 'x.md2'], /unknown option --yaml/],
      [['inspect'], /inspect needs a file/],
      [['inspect', 'a.md2', 'b.md2'], /inspect takes one file, got 2/],
      [['validate'], /validate needs at least one file/],
      [['rebuild', 'quake2/sydney/weapon.md2'], /rebuild needs -o OUT/],
      [['rebuild', 'quake2/sydney/weapon.md2', '-o'], /-o needs a file name/],
    ]
    for (const [argv, message] of cases) {
      const { code, stdout, stderr } = await run(argv)
      expect(code, argv.join(' ')).toBe(2)
      expect(stdout).toBe('')
      expect(stderr).toMatch(message)
      expect(stderr).toContain(USAGE)
    }
  })
})

describe('CLI inspect', () => {
  it('prints the header, sections in file order, animations, skins and warnings', async () => {
    const { code, stdout } = await run(['inspect', 'quake2/ogro/tris.MD2'])
    expect(code).toBe(0)
    expect(stdout).toContain('358 vertices, 469 st, 670 triangles, 199 frames of 1472 bytes, 13 skins')
    expect(stdout).toMatch(/ {2}header +0 +1 +68 +68 +68\n {2}skins +68 +13 +64 +832 +900\n {2}st +900 +469 +4 +1876 +2776\n/)
    expect(stdout).toMatch(/ {2}glcmds +303744 +3383 +4 +13532 +317276\n/)
    expect(stdout).toMatch(/ {2}stand +0–39 +40 frames +10 fps +names/)
    expect(stdout).toContain('  players/ogro/igdosh.pcx')
    expect(stdout).toContain('warnings (0)\n  none')
  })

  it('follows the offsets of files laid out in another order', async () => {
    const { stdout } = await run(['inspect', 'ufoai/bloodspider/bloodspider.md2'])
    // No GL commands: the empty section is listed last; the skin height is past the engine limit.
    expect(
      stdout
        .trimEnd()
        .split('\n')
        .filter((line) => /^ {2}(header|skins|st|triangles|frames|glcmds) /.test(line))
        .map((line) => line.trim().split(/ +/)[0]),
    ).toEqual(['header', 'skins', 'st', 'triangles', 'frames', 'glcmds'])
    expect(stdout).toContain("1023 texels of skin height: past Quake II's engine limit of 480")
  })

  it('gives the same as JSON with --json', async () => {
    const { code, stdout } = await run(['inspect', '--json', 'quake2/pknight/tris.md2'])
    expect(code).toBe(0)
    const report = JSON.parse(stdout) as InspectReport
    const model = parseMD2(readAsset('quake2/pknight/tris.md2'))
    expect(report.header).toEqual(model.header)
    expect(report.sections.map((s) => s.name)).toEqual(['header', 'st', 'triangles', 'frames', 'glcmds', 'skins'])
    expect(report.animations).toEqual(model.animations)
    expect(report.warnings).toEqual(model.warnings)
    expect(report.frameNames).toHaveLength(198)
    expect(report.glCommands.words).toBe(3583)
    expect(report.glCommands.strips + report.glCommands.fans).toBe(model.glCommands.length)
  })

  it('refuses a damaged file with its error code, exit 1', async () => {
    const { code, stdout, stderr } = await run(['inspect', 'zip.md2'], damaged())
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr).toBe('zip.md2: BAD_MAGIC: header at offset 0: not an MD2 file: magic is "PK??", expected "IDP2"\n')
  })
})

describe('CLI validate', () => {
  it('says OK for every real model, one line each, exit 0', async () => {
    const { code, stdout } = await run(['validate', ...ALL_MD2])
    expect(code).toBe(0)
    const lines = stdout.trimEnd().split('\n')
    expect(lines).toHaveLength(ALL_MD2.length)
    lines.forEach((line, i) => expect(line.startsWith(`${ALL_MD2[i]}: OK`)).toBe(true))
    expect(stdout).toContain('ufoai/soldier-male/body.md2: OK (2 warnings: 1007 frames: past')
  })

  it('names the reason for each refused file and exits 1', async () => {
    const { code, stdout } = await run(
      ['validate', 'quake2/sydney/weapon.md2', 'truncated.md2', 'zip.md2', 'v6.md2', 'badindex.md2', 'empty.md2', 'missing.md2'],
      damaged(),
    )
    expect(code).toBe(1)
    expect(stdout.trimEnd().split('\n')).toEqual([
      'quake2/sydney/weapon.md2: OK',
      expect.stringMatching(/^truncated\.md2: TRUNCATED: \w+ at offset \d+: .*past the end of the data \(500 bytes\)$/),
      expect.stringMatching(/^zip\.md2: BAD_MAGIC: /),
      'v6.md2: BAD_VERSION: header at offset 4: unsupported version 6, expected 8',
      expect.stringMatching(/^badindex\.md2: BAD_INDEX: triangles at offset \d+: triangle 0 uses vertex 9999, the model has 32$/),
      expect.stringMatching(/^empty\.md2: TRUNCATED: header at offset 0: /),
      'missing.md2: cannot read: no such file',
    ])
  })
})

describe('CLI rebuild', () => {
  it('rewrites in qdata layout with rebuilt GL commands and prints a summary', async () => {
    const { code, stdout, written } = await run(['rebuild', 'quake2/pknight/w_bfg.md2', '-o', 'out.md2'])
    expect(code).toBe(0)
    const data = written.get('out.md2')!
    const original = parseMD2(readAsset('quake2/pknight/w_bfg.md2'))
    const copy = parseMD2(data)
    expect(copy.header.offsetSkins).toBe(68)
    expect(copy.header.offsetEnd).toBe(data.length)
    expect(copy.glCommandData).toEqual(buildGlCommands(original))
    expect(copy.triangles).toEqual(original.triangles)
    expect(stdout).toMatch(
      /^wrote out\.md2: 81300 bytes \(quake2\/pknight\/w_bfg\.md2: 81300\), 173 frames, 158 triangles, GL commands rebuilt: \d+ strips, \d+ fans, 909 words \(was 909\)\n$/,
    )
  })

  it('builds GL commands for a file that has none, and passes its warnings on', async () => {
    const { code, stderr, written } = await run(['rebuild', 'ufoai/wc/wc.md2', '--output=wc.md2'])
    expect(code).toBe(0)
    expect(stderr).toMatch(/^ufoai\/wc\/wc\.md2: warning: 2 frame name\(s\) carry bytes/)
    const copy = parseMD2(written.get('wc.md2')!)
    expect(copy.glCommands.reduce((sum, c) => sum + c.vertexCount - 2, 0)).toBe(copy.header.numTris)
    expect(copy.warnings).toEqual([])
  })

  it('exits 1 on a damaged input or an unwritable output', async () => {
    const bad = await run(['rebuild', 'v6.md2', '-o', 'out.md2'], damaged())
    expect(bad.code).toBe(1)
    expect(bad.stderr).toBe('v6.md2: BAD_VERSION: header at offset 4: unsupported version 6, expected 8\n')
    expect(bad.written.size).toBe(0)
    const readonly = await run(['rebuild', 'quake2/sydney/weapon.md2', '-o', '/readonly/out.md2'])
    expect(readonly.code).toBe(1)
    expect(readonly.stderr).toBe('/readonly/out.md2: cannot write: permission denied\n')
  })
})

const BIN = resolve(import.meta.dirname, '../../bin/react-three-md2.mjs')
const BUILT = existsSync(resolve(import.meta.dirname, '../../dist/cli/main.js'))

describe.skipIf(!BUILT)('the built bin (after npm run build)', () => {
  function bin(args: string[]): { code: number; stdout: string; stderr: string } {
    try {
      const stdout = execFileSync(process.execPath, [BIN, ...args], { encoding: 'utf8', stdio: 'pipe' })
      return { code: 0, stdout, stderr: '' }
    } catch (error) {
      const failed = error as { status: number; stdout: string; stderr: string }
      return { code: failed.status, stdout: failed.stdout, stderr: failed.stderr }
    }
  }

  it('runs validate, rebuild and a wrong command with the right exit codes', async () => {
    const file = join(ASSETS_DIR, 'quake2/sydney/weapon.md2')
    expect(bin(['validate', file])).toMatchObject({ code: 0, stdout: `${file}: OK\n` })
    expect(bin(['validate', file, join(ASSETS_DIR, 'CREDITS.md')]).code).toBe(1)
    expect(bin(['nonsense']).code).toBe(2)
    const dir = mkdtempSync(join(tmpdir(), 'md2-cli-'))
    try {
      const out = join(dir, 'weapon.md2')
      expect(bin(['rebuild', file, '-o', out]).code).toBe(0)
      expect(parseMD2(new Uint8Array(readFileSync(out))).header.numTris).toBe(56)
    } finally {
      rmSync(dir, { recursive: true })
    }
  })
})
