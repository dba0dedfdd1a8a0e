/**
 * bakeMD2 in Chromium, as an app converting a dropped file: the rig exported by GLTFExporter, loaded by
 * GLTFLoader with its texture decoded by the browser, baked; every frame as the library draws it on three's
 * own skinned pose, and the skin read from the texture (`skinImageOf`) written as PCX and decoded back.
 */
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'
import { describe, expect, test } from 'vitest'
import { bakeMD2, decodePCX, encodePCX, parseMD2, skinImageOf, writeMD2 } from '../../src/index'
import { RIG_TEXTURE, buildRig, exportRig, rigTexturePixels } from '../../stories/support/rig'
import { drawnFrame, halfStep, threePose, worstNearest } from '../support/skinnedReference'

describe('bakeMD2 in a browser', () => {
  test('one animation per clip, every frame on three’s pose, the texture as a PCX skin of its size', async () => {
    const { scene, clips } = buildRig()
    const glb = await exportRig(scene, clips)
    const parse = () => new GLTFLoader().parseAsync(glb.slice().buffer, '')
    const [gltf, reference] = await Promise.all([parse(), parse()])
    const baked = bakeMD2(gltf.scene, gltf.animations, { fps: 12, scale: 30, skins: ['rig.pcx'] })
    const model = parseMD2(writeMD2(baked.model))
    expect(model.animations.map(({ name, start, end }) => [name, end - start + 1])).toEqual([
      ['Walk', 13],
      ['Wave', 8],
      ['Idle_Breath', 5],
    ])
    for (const { clip: name, start, end } of baked.clips) {
      const clip = reference.animations.find((c) => c.name === name)!
      for (let f = start; f <= end; f++) {
        const want = threePose(reference.scene, clip, (f - start) / 12).map((v) => v * 30)
        expect(worstNearest(drawnFrame(model, f), want, halfStep(model, f)), `${name} ${f - start}`).toBeLessThanOrEqual(1)
      }
    }

    expect(baked.skinTexture).toBeDefined()
    const image = skinImageOf(baked.skinTexture!)
    expect([image.width, image.height, model.header.skinWidth, model.header.skinHeight]).toEqual([
      RIG_TEXTURE.width,
      RIG_TEXTURE.height,
      RIG_TEXTURE.width,
      RIG_TEXTURE.height,
    ])
    const skin = decodePCX(encodePCX(image))
    expect([skin.width, skin.height]).toEqual([RIG_TEXTURE.width, RIG_TEXTURE.height])
    // The texture's colours are Quake II palette entries: the PCX keeps them exactly.
    expect([...skin.data].every((value, i) => value === rigTexturePixels()[i])).toBe(true)
  })
})
