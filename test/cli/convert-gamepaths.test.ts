/**
 * convert's game paths and what it says (the issue after #41): the skin named in the MD2 as Quake II looks it
 * up from its game folder (`--game-path`, or OUT's folder from its `models`/`players` folder on); every
 * name cut and texture left out said on one line; a mesh taken as it is refused past Quake II's limits as a
 * bake is. Node only: the rig is exported with three's GLTFExporter.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { buildRig, exportRig } from '../../stories/support/rig'
import { ASSETS_DIR } from '../support/assets'
import { runOnDisk as run } from '../support/cli'

let dir: string
let rig: string

const skinsOf = (path: string) => parseMD2(new Uint8Array(readFileSync(path))).skins

/** A flat grid of `n × n` quads as OBJ text: (n + 1)² vertices, 2n² triangles. */
function grid(n: number, extra = ''): string {
  const lines = [extra]
  for (let y = 0; y <= n; y++) for (let x = 0; x <= n; x++) lines.push(`v ${x} ${y} 0`, `vt ${x / n} ${y / n}`)
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) {
      const a = y * (n + 1) + x + 1
      const [b, c, d] = [a + 1, a + n + 2, a + n + 1]
      lines.push(`f ${a}/${a} ${b}/${b} ${c}/${c}`, `f ${a}/${a} ${c}/${c} ${d}/${d}`)
    }
  return lines.join('\n')
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'md2-gamepaths-'))
  const { scene, clips } = buildRig()
  clips[0]!.name = 'walking_inPlace_forward_slow'
  rig = join(dir, 'rig.glb')
  writeFileSync(rig, await exportRig(scene, clips))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('--game-path', () => {
  it('names the skin under the game folder; the skin file is still written beside OUT', async () => {
    const out = join(dir, 'fox.md2')
    const result = await run(['convert', rig, out, '--game-path', 'models/monsters/fox'])
    expect(result.code).toBe(0)
    expect(skinsOf(out)).toEqual(['models/monsters/fox/fox.pcx'])
    expect(existsSync(join(dir, 'fox.pcx'))).toBe(true)
    expect(result.stdout).toMatch(/, named models\/monsters\/fox\/fox\.pcx in the model\n$/)
    // A trailing slash is the same folder; '' keeps the bare name.
    expect((await run(['convert', rig, join(dir, 'fox2.md2'), '--game-path', 'models/fox/'])).code).toBe(0)
    expect(skinsOf(join(dir, 'fox2.md2'))).toEqual(['models/fox/fox2.pcx'])
    expect((await run(['convert', rig, join(dir, 'fox3.md2'), '--game-path', ''])).code).toBe(0)
    expect(skinsOf(join(dir, 'fox3.md2'))).toEqual(['fox3.pcx'])
  })

  it('is found in OUT inside a game folder, and said; --game-path overrides it', async () => {
    const folder = join(dir, 'quake2', 'baseq2', 'models', 'monsters', 'fox')
    mkdirSync(folder, { recursive: true })
    const out = join(folder, 'fox.md2')
    const result = await run(['convert', rig, out])
    expect(result.code).toBe(0)
    expect(skinsOf(out)).toEqual(['models/monsters/fox/fox.pcx'])
    expect(existsSync(join(folder, 'fox.pcx'))).toBe(true)
    expect(result.stdout).toMatch(
      /named models\/monsters\/fox\/fox\.pcx in the model \(the game path from OUT's folder; --game-path sets another\)/,
    )
    const players = join(dir, 'mod', 'players', 'fox')
    mkdirSync(players, { recursive: true })
    expect((await run(['convert', rig, join(players, 'tris.md2')])).code).toBe(0)
    expect(skinsOf(join(players, 'tris.md2'))).toEqual(['players/fox/tris.pcx'])
    expect((await run(['convert', rig, out, '--force', '--game-path', ''])).code).toBe(0)
    expect(skinsOf(out)).toEqual(['fox.pcx'])
    // Outside a game folder: the bare name, nothing said.
    const plain = await run(['convert', rig, join(dir, 'plain.md2')])
    expect(skinsOf(join(dir, 'plain.md2'))).toEqual(['plain.pcx'])
    expect(plain.stdout).not.toMatch(/named/)
  })

  it('refuses what Quake II cannot look up, naming the option and the value, nothing written', async () => {
    const out = join(dir, 'bad.md2')
    for (const [value, why] of [
      ['/models/fox', /no leading slash/],
      ['C:/quake2/baseq2', /no leading slash or drive/],
      ['models/../fox', /no "\.\."/],
      ['models//fox', /empty folder/],
      ['models\\fox', /forward slashes/],
      ['models/f\u00f6x', /not ASCII/],
      [`models/${'x'.repeat(60)}`, /the skin name "models\/x+\/bad\.pcx" would be 75 bytes, past MD2's 63/],
    ] as const) {
      const result = await run(['convert', rig, out, '--game-path', value])
      expect(result.code).toBe(2)
      expect(result.stderr).toContain(`--game-path ${JSON.stringify(value)}: `)
      expect(result.stderr).toMatch(why)
      expect(existsSync(out)).toBe(false)
    }
    const obj = join(dir, 'tri.obj')
    writeFileSync(obj, 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n')
    expect(await run(['convert', obj, join(dir, 'tri.md2'), '--game-path', 'models/tri'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--game-path: for glTF scenes baked to \.md2 only/),
    })
  })
})

describe('what is cut or left out is said, one line each', () => {
  it('a clip name cut to fit MD2\u2019s frame names', async () => {
    const result = await run(['convert', rig, join(dir, 'cut.md2')])
    expect(result.code).toBe(0)
    const lines = result.stderr.split('\n').filter((line) => line.includes('walking_inPlace_forward_slow'))
    expect(lines).toEqual([
      expect.stringMatching(
        /rig\.glb: warning: clip "walking_inPlace_forward_slow" is named "walking_inPla" in the model \(frames walking_inPla01, …\): MD2's frame names hold 15 bytes/,
      ),
    ])
    expect(parseMD2(new Uint8Array(readFileSync(join(dir, 'cut.md2')))).animations.map((a) => a.name)).toContain('walking_inPla')
  })

  it('a mesh taken as it is: its texture, an OBJ\u2019s materials; no skin size in the summary', async () => {
    const glb = join(dir, 'ogro.glb')
    expect((await run(['convert', join(ASSETS_DIR, 'quake2/ogro/tris.MD2'), glb])).code).toBe(0)
    const back = await run(['convert', glb, join(dir, 'ogro.md2')])
    expect(back.code).toBe(0)
    expect(back.stderr).toMatch(/ogro\.glb: warning: its texture is not written as a skin: a mesh taken as it is gets none/)
    expect(back.stdout).not.toMatch(/skin size/)
    expect(back.stdout).toMatch(/no skin written \(texture coordinates in 256×256 texels\)/)
    const obj = join(dir, 'lib.obj')
    writeFileSync(obj, grid(2, 'mtllib lib.mtl'))
    const lib = await run(['convert', obj, join(dir, 'lib.md2')])
    expect(lib.code).toBe(0)
    expect(lib.stderr).toMatch(/^\S*lib\.obj: warning: materials "lib\.mtl" not read: an OBJ's textures are not written as a skin/)
    expect(lib.stderr.trim().split('\n')).toHaveLength(1)
  })
})

describe('a mesh taken as it is past Quake II\u2019s limits', () => {
  it('is refused as a bake is, with what fits; --no-engine-limits writes it, said on one line', async () => {
    const obj = join(dir, 'big.obj')
    // 51² = 2601 vertices, 5000 triangles.
    writeFileSync(obj, grid(50))
    const out = join(dir, 'big.md2')
    const refused = await run(['convert', obj, out])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(
      /big\.obj: UNWRITABLE: triangles, vertices: 5000 triangles, 904 past MD2's 4096; 2601 vertices, 553 past MD2's 2048 \(Quake II's limits\): simplify the mesh .*--simplify.*--no-engine-limits writes it anyway\n$/,
    )
    expect(existsSync(out)).toBe(false)
    const written = await run(['convert', obj, out, '--no-engine-limits'])
    expect(written.code).toBe(0)
    expect(written.stderr).toMatch(
      /big\.md2: warning: passes Quake II's limits: 2601 vertices > 2048 \(--simplify\); 5000 triangles > 4096 \(--simplify\)\n$/,
    )
    expect(parseMD2(new Uint8Array(readFileSync(out))).header.numTris).toBe(5000)
  })
})

describe('the help', () => {
  it('names --game-path, its default and what --no-engine-limits writes', async () => {
    const help = await run(['convert', '--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('--game-path DIR')
    expect(help.stdout).toMatch(/Default: OUT's folder from its last models or players\s+folder on/)
    expect(help.stdout).toMatch(/A mesh taken as it is is refused past them too, unless --no-engine-limits/)
  })
})
