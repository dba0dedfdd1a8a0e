/**
 * `react-three-md2 pak list|extract|add` on the real file system: PACK and zip round trips byte for
 * byte, and crafted archives whose names try to leave the folder write nothing outside it.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { zipSync } from 'fflate'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { safeEntryPath } from '../../src/core/archive/safeEntryPath'
import { openArchive } from '../../src/core/archive/openArchive'
import { assetFolderFiles, makePak, sameBytes } from '../support/archives'
import { runOnDisk } from '../support/cli'

let root: string
let cwd: string

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'md2-pak-'))
  cwd = process.cwd()
})
afterEach(() => {
  process.chdir(cwd)
  rmSync(root, { recursive: true, force: true })
})

const run = runOnDisk

/** Every file under `dir`, as `relative/path` → bytes. */
function tree(dir: string, prefix = ''): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>()
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) for (const [k, v] of tree(path, `${prefix}${name}/`)) files.set(k, v)
    else files.set(`${prefix}${name}`, new Uint8Array(readFileSync(path)))
  }
  return files
}

const OGRO_FILES = assetFolderFiles('quake2/ogro', 'players/ogro/').filter((file) => /tris|igdosh|w_railgun|g_rail/i.test(file.name))

describe.each(['pak', 'pk3', 'zip'])('pak add, list and extract round-trip a .%s byte for byte', (extension) => {
  it('adds files under their paths, lists them, and extracts the same bytes', async () => {
    process.chdir(root)
    for (const file of OGRO_FILES) {
      mkdirSync(join(root, 'players/ogro'), { recursive: true })
      writeFileSync(join(root, file.name), file.bytes)
    }
    const archive = `models.${extension}`
    const added = await run(['pak', 'add', archive, ...OGRO_FILES.map((f) => f.name)])
    expect(added.code).toBe(0)
    expect(added.stdout).toMatch(new RegExp(`added ${OGRO_FILES.length}, replaced 0; ${OGRO_FILES.length} files`))
    const opened = openArchive(new Uint8Array(readFileSync(join(root, archive))))
    expect(opened.kind).toBe(extension === 'pak' ? 'pak' : 'zip')
    for (const file of OGRO_FILES) expect(sameBytes(opened.read(file.name), file.bytes)).toBe(true)

    const listed = await run(['pak', 'list', archive])
    expect(listed.code).toBe(0)
    for (const file of OGRO_FILES) expect(listed.stdout).toMatch(new RegExp(`^ *${file.bytes.length}  ${file.name}$`, 'm'))
    expect(listed.stdout).toMatch(new RegExp(`${OGRO_FILES.length} files, ${OGRO_FILES.reduce((n, f) => n + f.bytes.length, 0)} bytes`))

    const out = join(root, 'out')
    const extracted = await run(['pak', 'extract', archive, out])
    expect(extracted).toMatchObject({ code: 0, stdout: `extracted ${OGRO_FILES.length} of ${OGRO_FILES.length} files to ${out}\n` })
    const files = tree(out)
    expect([...files.keys()].sort()).toEqual(OGRO_FILES.map((f) => f.name).sort())
    for (const file of OGRO_FILES) expect(sameBytes(files.get(file.name), file.bytes)).toBe(true)

    // Adding again replaces the entry of the same name (any case) and keeps the others.
    writeFileSync(join(root, 'players/ogro/igdosh.pcx'), new Uint8Array([1, 2, 3]))
    const replaced = await run(['pak', 'add', archive, 'players/ogro/igdosh.pcx'])
    expect(replaced.stdout).toMatch(new RegExp(`added 0, replaced 1; ${OGRO_FILES.length} files`))
    expect([...openArchive(new Uint8Array(readFileSync(join(root, archive)))).read('players/ogro/igdosh.pcx')!]).toEqual([1, 2, 3])
  })
})

describe('pak extract never writes outside DIR', () => {
  const good = { name: 'players/ok/tris.md2', bytes: new Uint8Array([7, 7, 7]) }
  const crafted = [
    { name: '../escape.txt', bytes: new Uint8Array([1]) },
    { name: 'players/../../escape2.txt', bytes: new Uint8Array([2]) },
    { name: '/tmp/absolute.txt', bytes: new Uint8Array([3]) },
    { name: 'C:\\windows\\drive.txt', bytes: new Uint8Array([4]) },
    { name: '..\\backslash.txt', bytes: new Uint8Array([5]) },
    { name: 'players\\..\\..\\backslash2.txt', bytes: new Uint8Array([6]) },
  ]

  it.each(['pak', 'zip'])('a crafted %s: safe entries extracted, the others refused with UNSAFE_PATH, nothing outside', async (kind) => {
    const bytes =
      kind === 'pak'
        ? makePak([good, ...crafted])
        : zipSync(Object.fromEntries([good, ...crafted].map((f) => [f.name, [f.bytes, { level: 0 }]])) as Parameters<typeof zipSync>[0])
    const archive = join(root, `evil.${kind === 'pak' ? 'pak' : 'zip'}`)
    writeFileSync(archive, bytes)
    const out = join(root, 'deep/out')
    const before = tree(root)
    const result = await run(['pak', 'extract', archive, out])
    expect(result.code).toBe(1)
    expect(result.stdout).toBe(`extracted 1 of ${crafted.length + 1} files to ${out}, ${crafted.length} refused\n`)
    expect(result.stderr.trim().split('\n')).toHaveLength(crafted.length)
    for (const line of result.stderr.trim().split('\n'))
      expect(line).toMatch(
        /UNSAFE_PATH: archive: entry ".*": (a ".." segment leaves the folder|an absolute path|a drive letter); not extracted/,
      )
    // Only the one safe file is new anywhere under the temporary root.
    const after = tree(root)
    const added = [...after.keys()].filter((k) => !before.has(k))
    expect(added).toEqual(['deep/out/players/ok/tris.md2'])
    expect(existsSync('/tmp/absolute.txt') && statSync('/tmp/absolute.txt').size === 1 && readFileSync('/tmp/absolute.txt')[0] === 3).toBe(
      false,
    )
  })

  it('a link inside DIR that points outside is not written through', async () => {
    const outside = join(root, 'outside')
    const out = join(root, 'out')
    mkdirSync(outside)
    mkdirSync(out)
    symlinkSync(outside, join(out, 'players'))
    const archive = join(root, 'linked.pak')
    writeFileSync(archive, makePak([good]))
    const result = await run(['pak', 'extract', archive, out])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/UNSAFE_PATH: archive: .*outside .*; not written/)
    expect(readdirSync(outside)).toEqual([])
  })

  it('keeps existing files unless --force', async () => {
    const archive = join(root, 'one.pak')
    writeFileSync(archive, makePak([good]))
    const out = join(root, 'out')
    mkdirSync(join(out, 'players/ok'), { recursive: true })
    writeFileSync(join(out, 'players/ok/tris.md2'), 'mine')
    const kept = await run(['pak', 'extract', archive, out])
    expect(kept.code).toBe(1)
    expect(kept.stderr).toMatch(/tris\.md2: exists, not overwritten \(--force overwrites\)/)
    expect(readFileSync(join(out, 'players/ok/tris.md2'), 'utf8')).toBe('mine')
    const forced = await run(['pak', 'extract', archive, out, '--force'])
    expect(forced.code).toBe(0)
    expect([...readFileSync(join(out, 'players/ok/tris.md2'))]).toEqual([7, 7, 7])
  })
})

describe('pak add and bad input', () => {
  it('refuses paths outside the working folder before writing anything', async () => {
    process.chdir(root)
    writeFileSync(join(root, 'a.md2'), 'x')
    for (const bad of ['../a.md2', join(root, 'a.md2'), 'C:\\a.md2']) {
      const result = await run(['pak', 'add', 'new.pak', 'a.md2', bad])
      expect(result.code).toBe(1)
      expect(result.stderr).toMatch(/UNSAFE_PATH/)
      expect(existsSync(join(root, 'new.pak'))).toBe(false)
    }
  })

  it('a PACK name longer than 55 bytes is refused; a damaged archive and a missing one get one line, exit 1', async () => {
    process.chdir(root)
    const long = `${'x'.repeat(60)}.md2`
    writeFileSync(join(root, long), 'x')
    const refused = await run(['pak', 'add', 'long.pak', long])
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringMatching(/UNWRITABLE: pak: .* a PACK name holds at most 55/) })
    writeFileSync(join(root, 'bad.pak'), 'PACK but short')
    const damaged = await run(['pak', 'list', 'bad.pak'])
    expect(damaged.code).toBe(1)
    expect(damaged.stderr.trim().split('\n')).toHaveLength(1)
    expect((await run(['pak', 'list', 'none.pak'])).stderr).toBe('none.pak: cannot read: no such file\n')
    expect((await run(['pak', '--help'])).stdout).toMatch(/pak extract ARCHIVE DIR \[--force\]/)
  })

  it('safeEntryPath keeps relative names and folds separators', () => {
    expect(safeEntryPath('players\\ogro\\tris.md2')).toBe('players/ogro/tris.md2')
    expect(safeEntryPath('./players//ogro/./tris.md2')).toBe('players/ogro/tris.md2')
    expect(safeEntryPath('a..b/c..')).toBe('a..b/c..')
    for (const bad of ['', '..', 'a/../../b', '/x', '\\\\server\\x', 'C:x', 'd:/x', 'a\u0000b', 'c1\u009b2J.txt', 'del\u007f.txt'])
      expect(() => safeEntryPath(bad)).toThrow(expect.objectContaining({ code: 'UNSAFE_PATH' }))
  })
})
