/**
 * Armed characters on the GPU path against the CPU path in Chromium: an Ogro and a Perpetual Knight with
 * their synced weapons (the knight's weapon has 173 frames to his 198: shown clamped), and a UFO:AI
 * soldier with his head on `tag_head`, drawn by <MD2Model> (+ <MD2Model sync>, <MD2Attach>) and by
 * <MD2Instances> with follower crowds, in both lighting modes: the same picture but for a handful of
 * edge pixels.
 */
import { expect, test } from 'vitest'
import type { MD2ModelData, MD2Pose, MD2Tags } from '../../src/core/internal'
import { MD2Attach, MD2Instance, MD2Instances, MD2Model, MD2Quake2Lighting, parseMD2, parseMD2Tags } from '../../src/index'
import { difference } from '../../stories/support/pixels'
import { CrowdsIn, mount, expectRenderer, expectSamePicture, picturesOf } from './canvas'
import { describeOn } from '../support/webgpu-three'
import type { MD2Crowd } from '../../src/three/crowd/MD2Crowd'
import { RENDERER_KINDS } from '../../stories/support/renderers'

const Q2 = '/assets/quake2'
const SOLDIER = '/assets/ufoai/soldier-male'
/** Each model's file and its skin's. */
const FILES = {
  ogro: { md2: `${Q2}/ogro/tris.MD2`, skin: `${Q2}/ogro/igdosh.pcx` },
  ogroWeapon: { md2: `${Q2}/ogro/weapon.md2`, skin: `${Q2}/ogro/weapon.pcx` },
  knight: { md2: `${Q2}/pknight/tris.md2`, skin: `${Q2}/pknight/knight.pcx` },
  knightWeapon: { md2: `${Q2}/pknight/weapon.md2`, skin: `${Q2}/pknight/weapon.pcx` },
  soldier: { md2: `${SOLDIER}/body.md2`, skin: `${SOLDIER}/body.png` },
  head: { md2: `${SOLDIER}/head01.md2`, skin: `${SOLDIER}/head01a.png` },
}

const pose = (from: number, to: number, t: number, fade?: [number, number, number, number]): { pose: MD2Pose } => ({
  pose: { from, to, t, fadeFrom: fade?.[0] ?? 0, fadeTo: fade?.[1] ?? 0, fadeT: fade?.[2] ?? 0, fadeWeight: fade?.[3] ?? 0 },
})

type Which = 'ogro' | 'knight' | 'soldier'
interface Placed {
  which: Which
  controller: { pose: MD2Pose }
  position: [number, number, number]
  yaw: number
  scale: number
}

/**
 * An Ogro mid-attack, crossfading from a run; a knight in death frames past his weapon's last (183, and
 * a fade from 190); a soldier between two frames of a walk, crossfading from a stand (his head's tag crossfades
 * too), facing three quarters away.
 */
const SCENE: Placed[] = [
  { which: 'ogro', controller: pose(50, 51, 0.4, [41, 42, 0.5, 0.3]), position: [-42, -6, 0], yaw: 0.9, scale: 0.55 },
  { which: 'knight', controller: pose(183, 184, 0.5, [190, 191, 0.25, 0.4]), position: [-5, -6, 0], yaw: -0.6, scale: 0.55 },
  { which: 'soldier', controller: pose(130, 131, 0.4, [2, 3, 0.5, 0.45]), position: [36, -4, 0], yaw: 2.3, scale: 0.6 },
]

/** The weapon (synced) of each Quake II body, or the head (tagged) of the soldier. */
const FOLLOWER: Record<Which, 'ogroWeapon' | 'knightWeapon' | 'head'> = { ogro: 'ogroWeapon', knight: 'knightWeapon', soldier: 'head' }

async function fetchBytes(url: string): Promise<ArrayBuffer> {
  return (await fetch(url)).arrayBuffer()
}

async function loadAll(): Promise<{ models: Record<keyof typeof FILES, MD2ModelData>; tags: MD2Tags }> {
  const entries = await Promise.all(
    Object.entries(FILES).map(async ([key, { md2 }]) => [key, parseMD2(await fetchBytes(md2), { name: md2 }) as MD2ModelData] as const),
  )
  const tags = parseMD2Tags(await fetchBytes(`${SOLDIER}/body.tag`), { name: `${SOLDIER}/body.tag` })
  return { models: Object.fromEntries(entries) as Record<keyof typeof FILES, MD2ModelData>, tags }
}

for (const renderer of RENDERER_KINDS)
  describeOn(renderer)(`armed <MD2Instances> (follower crowds) draw what armed <MD2Model>s draw (${renderer})`, () => {
    const cases: { lighting: 'lambert' | 'quake2'; decode?: 'compute' }[] = [{ lighting: 'lambert' }, { lighting: 'quake2' }]
    // On real WebGPU, the leaders asked for the compute pass: their followers take it from them.
    if (renderer === 'webgpu') cases.push({ lighting: 'quake2', decode: 'compute' })
    for (const { lighting, decode } of cases) {
      test(`lighting="${lighting}"${decode ? ` decode="${decode}" on the leaders` : ''}`, async () => {
        const { models, tags } = await loadAll()
        const look = { shadelight: 0.8 } as const
        const crowds: MD2Crowd[] = []
        const light = <directionalLight position={[30, 50, 80]} intensity={2.5} />
        /** A model as both paths draw it: with its skin, and the soldier's body with its tags. */
        const modelOf = (which: keyof typeof FILES) => ({
          model: models[which],
          skin: FILES[which].skin,
          tags: which === 'soldier' ? tags : undefined,
        })
        const cpu = (
          <>
            {light}
            {SCENE.map(({ which, controller, position, yaw, scale }) => {
              const follower = FOLLOWER[which]
              // The CPU path lit the Quake II way by a child of each model.
              const lit = lighting === 'quake2' && <MD2Quake2Lighting shadelight={look.shadelight} />
              const child = (
                <MD2Model {...modelOf(follower)} sync={which !== 'soldier'}>
                  {lit}
                </MD2Model>
              )
              return (
                <MD2Model key={which} {...modelOf(which)} controller={controller} position={position} rotation={[0, yaw, 0]} scale={scale}>
                  {lit}
                  {which === 'soldier' ? <MD2Attach tag="tag_head">{child}</MD2Attach> : child}
                </MD2Model>
              )
            })}
          </>
        )
        const gpu = (armed: boolean) => (
          <>
            {light}
            <CrowdsIn into={crowds} />
            {SCENE.map(({ which, controller, position, yaw, scale }) => {
              const follower = FOLLOWER[which]
              return (
                // Posed by the shader (followers take it from their leader), as on a GPU: the tag in the shader too.
                <MD2Instances key={which} {...modelOf(which)} limit={2} decode={decode} pose="shader">
                  {/* Worn by the leader; its followers are lit as it is, with nothing of their own. */}
                  {lighting === 'quake2' && <MD2Quake2Lighting shadelight={look.shadelight} />}
                  <MD2Instance controller={controller} position={position} rotation={[0, yaw, 0]} scale={scale} />
                  {armed &&
                    (which === 'soldier' ? (
                      <MD2Instances {...modelOf(follower)} tag="tag_head" />
                    ) : (
                      <MD2Instances {...modelOf(follower)} sync />
                    ))}
                </MD2Instances>
              )
            })}
          </>
        )
        const { stage, render } = await mount(cpu, { renderer })
        await expectRenderer(stage.canvas, renderer)
        const [cpuPicture, gpuPicture] = await picturesOf({ stage, render }, gpu(true), ['the CPU scene', 'the GPU scene'])
        // Every crowd, leader and follower, blended its poses where asked.
        expect(crowds.map((crowd) => crowd.decodedBy)).toEqual(crowds.map(() => (decode ? 'compute' : 'vertex')))
        expect(crowds.length).toBe(SCENE.length * 2)
        // The heads (unsynced, on tag_head) stay on stored rows, placed on the tag by their shader, as their soldier does
        // (posed with it where it blends by compute).
        const heads = crowds.filter((crowd) => crowd.model === models.head)
        expect(heads.map((crowd) => crowd.drawnFrom)).toEqual([decode ? 'posed' : 'stored'])
        expectSamePicture(cpuPicture, gpuPicture)
        // The weapons and the head are really drawn by the followers: without them, hundreds of pixels change.
        render(gpu(false))
        const unarmed = await stage.settle((p) => difference(gpuPicture, p) > 0, 'the crowds without followers')
        expect(difference(gpuPicture, unarmed)).toBeGreaterThan(300)
      })
    }
  })
