/**
 * What convert writes, loaded by id's own rules (issue #56; test/support/quake2Rules.ts, read from the GPL
 * source): skins drawn as written (GL_Upload32 rounds each side down to a power of two, at most 256), PCX rows
 * as LoadPCX reads them (bytes_per_line ignored), models within the 2 MiB hunk Mod_LoadAliasModel allocates in,
 * and a player folder as CL_LoadClientinfo loads it.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { encode as encodePng } from 'fast-png'
import {
  AnimationClip,
  Group,
  Mesh,
  MeshStandardMaterial,
  Quaternion,
  QuaternionKeyframeTrack,
  SphereGeometry,
  Vector3,
  REVISION,
} from 'three'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { encodePCX } from '../../src/core/images/encodePCX'
import { decodePCXIndexed } from '../../src/core/images/pcx'
import { MIXAMO_CLIP } from '../../stories/support/character'
import { buildRig, exportRig } from '../../stories/support/rig'
import { runOnDisk as run } from '../support/cli'
import { readAsset } from '../support/assets'
import { makePCX } from '../support/pcx'
import { withImage } from '../support/gltfFiles'
import { loadPCX, quake2ClientRefusals, quake2Refusals, quake2SkinsDrawnSmaller } from '../support/quake2Rules'

let dir: string

/** Skin files as the engine would look them up: by name, beside the model. */
const beside = (name: string) => (existsSync(join(dir, name)) ? new Uint8Array(readFileSync(join(dir, name))) : undefined)
const bytesOf = (path: string) => new Uint8Array(readFileSync(path))

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'md2-rules-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the checker refuses what id’s code gets wrong (test/support/quake2Rules.ts)', () => {
  it('a padded PCX row (bytes_per_line past the width) is mis-read by LoadPCX, its last run past the buffer', () => {
    // 5 × 2, rows padded to 6 as the previous writer did, runs ending at each padded row.
    const padded = makePCX({ width: 5, height: 2, bytesPerLine: 6, body: [1, 2, 3, 4, 5, 0, 0xc5, 7, 0], palette: new Uint8Array(768) })
    const read = loadPCX(padded)
    expect(Array.from(read.pixels)).toEqual([1, 2, 3, 4, 5, 0, 7, 7, 7, 7])
    expect(read.overrun).toBe(1)
    const ogro = readAsset('quake2/ogro/tris.MD2')
    const skin = (name: string) => (name.endsWith('.pcx') ? padded : undefined)
    expect(quake2Refusals(ogro, skin).filter((why) => why.includes('igdosh'))).toEqual([
      'skin "players/ogro/igdosh.pcx": LoadPCX reads 5 bytes a row, the file\'s rows are 6 (mis-read)',
      'skin "players/ogro/igdosh.pcx": LoadPCX writes 1 bytes past its buffer',
    ])
  })

  it('a file past the 2 MiB hunk, and a skin drawn smaller than written', () => {
    const ogro = readAsset('quake2/ogro/tris.MD2').slice()
    new DataView(ogro.buffer).setInt32(64, 0x200001, true)
    expect(quake2Refusals(ogro, () => undefined)).toContain('Hunk_Alloc overflow: ofs_end 2097153 past the 2097152-byte alias hunk')
    const small = makePCX({ width: 14, height: 24, body: [], palette: new Uint8Array(768) })
    const drawn = quake2SkinsDrawnSmaller(readAsset('quake2/ogro/tris.MD2'), () => small)
    expect(drawn).toHaveLength(13)
    expect(drawn[0]).toBe('skin "players/ogro/igdosh.pcx": 14 × 24 drawn from 8 × 16')
  })
})

describe('skins are drawn as written (GL_Upload32, gl_round_down 1)', () => {
  it('a 14 × 24 texture is written at 16 × 32, not drawn from 8 × 16; st measured in it', async () => {
    const { scene, clips } = buildRig()
    const input = join(dir, 'tiny.glb')
    const data = new Uint8Array(14 * 24 * 4).map((_, i) => (i % 4 === 3 ? 255 : (i * 37) % 256))
    writeFileSync(input, withImage(await exportRig(scene, clips), encodePng({ width: 14, height: 24, data, channels: 4, depth: 8 })))
    const result = await run(['convert', input, join(dir, 'tiny.md2')])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/skin 16×32 written/)
    const md2 = bytesOf(join(dir, 'tiny.md2'))
    expect(quake2Refusals(md2, beside)).toEqual([])
    expect(quake2SkinsDrawnSmaller(md2, beside)).toEqual([])
    const model = parseMD2(md2)
    expect([model.header.skinWidth, model.header.skinHeight]).toEqual([16, 32])
  })

  it('--skin-size that ref_gl draws smaller is refused with one drawn as written; --no-engine-limits writes it, named', async () => {
    const { scene, clips } = buildRig()
    const input = join(dir, 'rig.glb')
    writeFileSync(input, await exportRig(scene, clips))
    const out = join(dir, 'sized.md2')
    const refused = await run(['convert', input, out, '--skin-size', '22x32'])
    expect(refused).toMatchObject({ code: 1, stdout: '' })
    expect(refused.stderr).toBe(
      '--skin-size 22x32: Quake II does not draw it as written: drawn from 16 × 32 (GL_Upload32 rounds each side down to a ' +
        'power of two, at most 256). --skin-size 32x32 is drawn as written (--no-engine-limits writes it anyway)\n',
    )
    expect(existsSync(out)).toBe(false)
    const written = await run(['convert', input, out, '--skin-size', '22x32', '--no-engine-limits'])
    expect(written.code).toBe(0)
    expect(written.stderr).toMatch(
      /sized\.md2: warning: passes Quake II's limits: skin 22×32: drawn from 16 × 32 .*\(--skin-size 32x32\)\n$/,
    )
    expect(quake2SkinsDrawnSmaller(bytesOf(out), beside)).toEqual(['skin "sized.pcx": 22 × 32 drawn from 16 × 32'])
  })
})

describe('PCX rows as LoadPCX reads them (bytes_per_line ignored)', () => {
  it('an odd width is written without padding: id’s loop reads every pixel in place, nothing past its buffer', () => {
    const width = 55
    const height = 9
    const data = new Uint8Array(width * height * 4).map((_, i) => (i % 4 === 3 ? 255 : ((i >> 2) * 53 + (i & 3) * 90) % 256))
    const pcx = encodePCX({ width, height, data })
    expect(new DataView(pcx.buffer).getUint16(66, true)).toBe(width)
    const ours = decodePCXIndexed(pcx)
    const ids = loadPCX(pcx)
    expect(ids.overrun).toBe(0)
    expect(Array.from(ids.pixels)).toEqual(Array.from(ours.indices))
  })

  it('convert’s 55-wide skin loads by the engine’s rules', async () => {
    const { scene, clips } = buildRig()
    const input = join(dir, 'rig55.glb')
    writeFileSync(input, await exportRig(scene, clips))
    const out = join(dir, 'odd.md2')
    const result = await run(['convert', input, out, '--skin-size', '55x32', '--no-engine-limits'])
    expect(result.code, result.stderr).toBe(0)
    expect(quake2Refusals(bytesOf(out), beside)).toEqual([])
  })
})

/** A ball of about 2,000 MD2 vertices turning for `seconds`: every frame about 8 kB. */
async function turningBall(seconds: number): Promise<string> {
  const ball = new Mesh(new SphereGeometry(10, 64, 32), new MeshStandardMaterial())
  ball.name = 'ball'
  const scene = new Group()
  scene.add(ball)
  const turn = (angle: number) => new Quaternion().setFromAxisAngle(new Vector3(0, 1, 0), angle).toArray()
  const track = new QuaternionKeyframeTrack(
    'ball.quaternion',
    [0, seconds / 2, seconds],
    [...turn(0), ...turn(Math.PI), ...turn(Math.PI * 2)],
  )
  const file = join(dir, `ball${seconds}.glb`)
  writeFileSync(file, await exportRig(scene, [new AnimationClip('Spin', seconds, [track])]))
  return file
}

describe('the 2 MiB alias hunk (Mod_LoadAliasModel Hunk_Alloc’s ofs_end; past it the game quits)', () => {
  // The figures are measured on r187's SphereGeometry; older three.js builds its spheres with other vertices.
  it.skipIf(Number(REVISION) < 187)(
    'a model past it is refused before writing, naming the limit, its size and a rate that fits; that rate loads',
    async () => {
      const input = await turningBall(30)
      const out = join(dir, 'ball.md2')
      const refused = await run(['convert', input, out])
      expect(refused).toMatchObject({ code: 1, stdout: '' })
      expect(refused.stderr).toMatch(
        /^.*ball\.md2: Quake II does not load it: \d+ bytes, past the 2097152 \(2 MiB\) Quake II loads an alias model into \(Mod_LoadAliasModel: "Hunk_Alloc overflow", the game quits\): 301 frames of \d+ vertices; --fps (\d+\.?\d*), or --simplify (\d+) fits it; nothing written \(--no-engine-limits writes it anyway\)\n$/,
      )
      expect(readdirSync(dir).filter((name) => name.startsWith('ball.'))).toEqual([])
      const rate = /--fps (\d+\.?\d*)/.exec(refused.stderr)![1]!
      const fitted = await run(['convert', input, out, '--fps', rate])
      expect(fitted.code, fitted.stderr).toBe(0)
      expect(quake2Refusals(bytesOf(out), beside)).toEqual([])
      // So does the mesh simplified to the triangles it names, at the rate asked.
      const triangles = /--simplify (\d+)/.exec(refused.stderr)![1]!
      const simplified = await run(['convert', input, out, '--simplify', triangles, '--force'])
      expect(simplified.code, simplified.stderr).toBe(0)
      expect(quake2Refusals(bytesOf(out), beside)).toEqual([])

      const past = join(dir, 'past.md2')
      const written = await run(['convert', input, past, '--no-engine-limits'])
      expect(written.code).toBe(0)
      expect(written.stderr).toMatch(/past\.md2: warning: passes Quake II's limits: past\.md2: \d+ bytes, past the 2097152 \(2 MiB\)/)
      expect(quake2Refusals(bytesOf(past), beside)).toEqual([
        expect.stringMatching(/^Hunk_Alloc overflow: ofs_end \d+ past the 2097152-byte alias hunk$/),
      ])
    },
  )
})

describe('a player folder as CL_LoadClientinfo loads it', () => {
  it('--player --weapon writes tris.md2, weapon.md2, NAME.pcx and NAME_i.pcx, each loading', async () => {
    const inputs: string[] = []
    for (const [file, clipName] of [
      ['idle', 'Idle Breath'],
      ['run', 'Walk'],
    ] as const) {
      const { scene, clips } = buildRig()
      const clip = clips.find((c) => c.name === clipName)!.clone()
      clip.name = MIXAMO_CLIP
      inputs.push(join(dir, `${file}.glb`))
      writeFileSync(inputs.at(-1)!, await exportRig(scene, [clip]))
    }
    const folder = join(dir, 'players', 'hero')
    mkdirSync(folder, { recursive: true })
    const result = await run(['convert', ...inputs, join(folder, 'tris.md2'), '--player', '--weapon', 'club', '--scale', '32'])
    expect(result.code, result.stderr).toBe(0)
    const files = Object.fromEntries(readdirSync(folder).map((name) => [name, bytesOf(join(folder, name))]))
    expect(quake2ClientRefusals('players/hero', files)).toEqual([])
    // The checker refuses what the client would not load: the view weapon, or the icon, missing.
    const { 'weapon.md2': _weapon, ...noWeapon } = files
    expect(quake2ClientRefusals('players/hero', noWeapon)).toEqual(['no weapon.md2'])
    const { 'hero_i.pcx': _icon, ...noIcon } = files
    expect(quake2ClientRefusals('players/hero', noIcon)).toEqual(['no skin NAME.pcx with its icon NAME_i.pcx beside it'])
  })
})
