/**
 * `convert` fits an unmodified Quake II by default (issue #41): the skin resampled to the largest size of
 * its shape the engine loads, st measured in it; `--skin-size` writes that size, refused where the engine
 * would not load it unless `--no-engine-limits`; what an output still passes named on one line. The files
 * are checked by Quake II's own loading rules (test/support/quake2Rules.ts), not by the library's parser.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { encode as encodePng } from 'fast-png'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { decodePCX } from '../../src/core/images/pcx'
import { QUAKE2_PALETTE } from '../../src/core/images/quake2Palette'
import { RIG_COLOURS, buildRig, exportRig } from '../../stories/support/rig'
import { runOnDisk as run } from '../support/cli'
import { withImage } from '../support/gltfFiles'
import { quake2Refusals, quake2SkinsDrawnSmaller } from '../support/quake2Rules'

let dir: string
let small: string

/** A texture of the rig's four palette colours by quadrant, at any size. */
function quadrants(width: number, height: number): Uint8Array {
  const data = new Uint8Array(width * height * 4)
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const p = RIG_COLOURS[(y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1)]!
      data.set([QUAKE2_PALETTE[p * 3]!, QUAKE2_PALETTE[p * 3 + 1]!, QUAKE2_PALETTE[p * 3 + 2]!, 255], (y * width + x) * 4)
    }
  return encodePng({ width, height, data, channels: 4, depth: 8 })
}

/** The rig with a `width × height` texture, written to the test's folder. */
async function rigWithTexture(width: number, height: number): Promise<string> {
  const { scene, clips } = buildRig()
  const file = join(dir, `rig-${width}x${height}.glb`)
  writeFileSync(file, withImage(await exportRig(scene, clips), quadrants(width, height)))
  return file
}

/** Skin files as the engine would look them up: by name, beside the model. */
const beside = (name: string) => (existsSync(join(dir, name)) ? new Uint8Array(readFileSync(join(dir, name))) : undefined)

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'md2-engine-'))
  const { scene, clips } = buildRig()
  small = join(dir, 'small.glb')
  writeFileSync(small, await exportRig(scene, clips))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the default output fits Quake II', () => {
  it('a 1024 × 1024 texture is written at 256 × 256 (what ref_gl draws as written), decoded back at the header size, st in it', async () => {
    const input = await rigWithTexture(1024, 1024)
    const out = join(dir, 'big.md2')
    const result = await run(['convert', input, out])
    // A modder's defaults: no warning, no note.
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/skin 256×256 written to .*big\.pcx \(Quake II's palette\)\n$/)
    const bytes = new Uint8Array(readFileSync(out))
    expect(quake2Refusals(bytes, beside)).toEqual([])
    expect(quake2SkinsDrawnSmaller(bytes, beside)).toEqual([])
    const model = parseMD2(bytes)
    expect(model.warnings).toEqual([])
    expect([model.header.skinWidth, model.header.skinHeight]).toEqual([256, 256])
    const skin = decodePCX(new Uint8Array(readFileSync(join(dir, 'big.pcx'))))
    expect([skin.width, skin.height]).toEqual([model.header.skinWidth, model.header.skinHeight])
    // Averaged down: each quadrant keeps its colour away from the seams.
    for (const [x, y, q] of [
      [64, 64, 0],
      [192, 64, 1],
      [64, 192, 2],
      [192, 192, 3],
    ] as const) {
      const p = RIG_COLOURS[q]!
      expect(Array.from(skin.data.subarray((y * 256 + x) * 4, (y * 256 + x) * 4 + 3))).toEqual(
        Array.from(QUAKE2_PALETTE.subarray(p * 3, p * 3 + 3)),
      )
    }
    // st measured in the written size: the same uvs as the 64 × 32 texture's, scaled.
    const reference = parseMD2(new Uint8Array(readFileSync(await convertSmall())))
    expect(model.st.length).toBe(reference.st.length)
    let worst = 0
    for (let i = 0; i < model.st.length; i += 2) {
      worst = Math.max(
        worst,
        Math.abs(model.st[i]! - (reference.st[i]! * 256) / 64),
        Math.abs(model.st[i + 1]! - (reference.st[i + 1]! * 256) / 32),
      )
      expect(model.st[i]).toBeLessThanOrEqual(256)
    }
    // One texel of the small skin is 4 of the large one: the large one is finer, never off by a texel of its own.
    expect(worst).toBeLessThan(256 / 64)
  })

  it('a wide texture: 2048 × 512 → 256 × 256, each side as many texels as ref_gl draws', async () => {
    const input = await rigWithTexture(2048, 512)
    const result = await run(['convert', input, join(dir, 'wide.md2')])
    expect(result.stderr).toBe('')
    expect(result.stdout).toMatch(/skin 256×256 written/)
    expect(quake2Refusals(new Uint8Array(readFileSync(join(dir, 'wide.md2'))), beside)).toEqual([])
    expect(quake2SkinsDrawnSmaller(new Uint8Array(readFileSync(join(dir, 'wide.md2'))), beside)).toEqual([])
  })
})

async function convertSmall(): Promise<string> {
  const out = join(dir, 'small.md2')
  if (!existsSync(out)) expect((await run(['convert', small, out])).code).toBe(0)
  return out
}

describe('--skin-size', () => {
  it('writes the image at that size, st measured in it', async () => {
    const result = await run(['convert', small, join(dir, 'sized.md2'), '--skin-size', '128x64'])
    expect(result.stderr).toBe('')
    expect(result.stdout).toMatch(/skin 128×64 written/)
    const model = parseMD2(new Uint8Array(readFileSync(join(dir, 'sized.md2'))))
    expect([model.header.skinWidth, model.header.skinHeight]).toEqual([128, 64])
    const skin = decodePCX(new Uint8Array(readFileSync(join(dir, 'sized.pcx'))))
    expect([skin.width, skin.height]).toEqual([128, 64])
  })

  it('a size Quake II does not load is refused with the reasons and a size that fits; --no-engine-limits writes it, named on one line', async () => {
    const out = join(dir, 'huge.md2')
    const refused = await run(['convert', small, out, '--skin-size', '1024x1024'])
    expect(refused).toMatchObject({ code: 1, stdout: '' })
    expect(refused.stderr).toBe(
      '--skin-size 1024x1024: Quake II does not load it: taller than 480 (Mod_LoadAliasModel: "has a skin taller than 480"); ' +
        'a PCX larger than 640 × 480 (LoadPCX: "Bad pcx file"); 1048576 texels, over the 131072 (512 × 256) an 8-bit skin may have ' +
        '(GL_Upload8: "too large"). --skin-size 256x256 is drawn as written (--no-engine-limits writes it anyway)\n',
    )
    expect(existsSync(out)).toBe(false)

    const written = await run(['convert', small, out, '--skin-size', '1024x1024', '--no-engine-limits'])
    expect(written.code).toBe(0)
    expect(written.stdout).toMatch(/skin 1024×1024 written/)
    const lines = written.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/huge\.md2: warning: passes Quake II's limits: skin 1024×1024: taller than 480 .*\(--skin-size 256x256\)$/)
    // The engine's rules agree: the checker refuses what the line names.
    expect(quake2Refusals(new Uint8Array(readFileSync(out)), beside)).toEqual(['skin taller than 480 (1024)'])
  })

  it('a .png skin is named as one Quake II does not load, with the option that fits', async () => {
    const result = await run(['convert', small, join(dir, 'png.md2'), '--skin-format', 'png'])
    expect(result.code).toBe(0)
    expect(result.stderr).toMatch(
      /png\.md2: warning: passes Quake II's limits: a PNG skin, which Quake II does not load \(GL_FindImage reads \.pcx and \.tga\) \(--skin-format pcx\)\n$/,
    )
    expect(quake2Refusals(new Uint8Array(readFileSync(join(dir, 'png.md2'))), beside)).toEqual([
      'skin "png.png": GL_FindImage loads names ending .pcx or .tga',
    ])
  })
})

describe('the help', () => {
  it('lists the options and the limits', async () => {
    const help = await run(['convert', '--help'])
    expect(help.code).toBe(0)
    for (const option of [
      'IN [ANIMATION...] OUT',
      '--simplify [TRIANGLES]',
      '--skin-size WxH',
      '--no-engine-limits',
      '--resources DIR',
      '--force',
    ])
      expect(help.stdout).toContain(option)
    expect(help.stdout).toMatch(/each side a power of two up to 256/)
    expect(help.stdout).toMatch(/named on one line, with the option that fits it/)
  })
})
