/**
 * The GPU path against the CPU path in Chromium: one scene of several models, frames, interpolations
 * and a crossfade, drawn by <MD2Model> and by <MD2Instances>, in both lighting modes, must give the
 * same picture but for a handful of edge pixels.
 */
import { useFrame } from '@react-three/fiber'
import { useEffect, useMemo, type ReactNode } from 'react'
import { Vector3 } from 'three'
import { expect, test, vi } from 'vitest'
import { MD2Crowd } from '../../src/three/crowd/MD2Crowd'
import { manyFrameModel } from '../support/many-frames'
import type { MD2ModelData, MD2Pose } from '../../src/core/internal'
import {
  MD2BlobShadow,
  MD2Instance,
  MD2Instances,
  MD2Model,
  MD2Quake2Lighting,
  MD2Shell,
  parseMD2,
  type MD2InstanceProps,
  type MD2InstancesProps,
  type MD2ModelProps,
} from '../../src/index'
import type { ShellSpec } from '../../src/core/lighting/quake2Light'
import { coverage, difference } from '../../stories/support/pixels'
import { RENDERER_KINDS } from '../../stories/support/renderers'
import type { Picture } from '../../stories/support/pixels'
import type { CrowdRenderer } from '../../src/three/crowd/gpu/CrowdRenderer'
import { BLACK, CrowdsIn, drawnPixels, drawsInSoftware, expectRenderer, expectSamePicture, LookingDown, mount, picturesOf } from './canvas'
import { describeOn, describeWebGPU, testOn } from '../support/webgpu-three'

const OGRO = '/assets/quake2/ogro/tris.MD2'
const OGRO_SKIN = '/assets/quake2/ogro/igdosh.pcx'
const RATAMAHATTA = '/assets/quake2/ratamahatta/tris.md2'
const RATAMAHATTA_SKIN = '/assets/quake2/ratamahatta/Ratamahatta.pcx'

const pose = (from: number, to: number, t: number, fade?: [number, number, number, number]): { pose: MD2Pose } => ({
  pose: { from, to, t, fadeFrom: fade?.[0] ?? 0, fadeTo: fade?.[1] ?? 0, fadeT: fade?.[2] ?? 0, fadeWeight: fade?.[3] ?? 0 },
})

interface Placed {
  which: 'ogro' | 'ratamahatta'
  controller: { pose: MD2Pose }
  x: number
  yaw: number
}

/** Two ogros and two Ratamahattas: keyframes, blends, a crossfade mid-way, four yaws (four light rows). */
const SCENE: Placed[] = [
  { which: 'ogro', controller: pose(0, 0, 0), x: -48, yaw: 0.2 },
  { which: 'ogro', controller: pose(100, 101, 0.25, [5, 6, 0.3, 0.6]), x: -16, yaw: 2.2 },
  { which: 'ratamahatta', controller: pose(40, 41, 0.5), x: 16, yaw: -0.9 },
  { which: 'ratamahatta', controller: pose(10, 11, 0.75), x: 48, yaw: -2.6 },
]

async function load(url: string, name: string): Promise<MD2ModelData> {
  return parseMD2(await (await fetch(url)).arrayBuffer(), { name }) as MD2ModelData
}

type Models = Record<Placed['which'], MD2ModelData>
const SKINS = { ogro: OGRO_SKIN, ratamahatta: RATAMAHATTA_SKIN }

async function loadModels(): Promise<Models> {
  return { ogro: await load(OGRO, OGRO), ratamahatta: await load(RATAMAHATTA, RATAMAHATTA) }
}

/**
 * SCENE drawn by one `<MD2Model>` each, in `lighting`, with `shell` (an `<MD2Shell>` in each), `look` on all,
 * `each(i)` on the `i`th and `layers(i)` in it.
 */
function cpuScene(
  models: Models,
  { lighting, shell, ...look }: Partial<MD2ModelProps> & { lighting?: 'lambert' | 'quake2'; shell?: ShellSpec },
  each: (i: number) => Partial<MD2ModelProps> = () => ({}),
  layers: (i: number) => ReactNode = () => null,
) {
  return SCENE.map((placed, i) => (
    <MD2Model
      key={i}
      model={models[placed.which]}
      skin={SKINS[placed.which]}
      controller={placed.controller}
      position={[placed.x, -8, 0]}
      rotation={[0, placed.yaw, 0]}
      scale={0.55}
      {...look}
      {...each(i)}
    >
      {lighting === 'quake2' && <MD2Quake2Lighting shadelight={0.8} />}
      {shell !== undefined && <MD2Shell color={shell} />}
      {layers(i)}
    </MD2Model>
  ))
}

/** The looks the GPU scenes wear, as children: the crowd's (`lighting`, `shell`) and an instance's (`shell`, `shadow`). */
interface CrowdLook {
  lighting?: 'lambert' | 'quake2'
  shell?: ShellSpec
}
interface InstanceLook {
  shell?: ShellSpec | ShellSpec[]
  shadow?: 'blob'
}

/** SCENE drawn by one `<MD2Instances>` a model, with `look` on both crowds and `each(i)` on the `i`th instance. */
function gpuScene(
  models: Models,
  { lighting, shell, ...look }: Partial<MD2InstancesProps> & CrowdLook,
  each: (i: number) => Partial<MD2InstanceProps> & InstanceLook = () => ({}),
) {
  return (['ogro', 'ratamahatta'] as const).map((which) => (
    // Posed by the shader, as on a GPU, unless the look says otherwise (`"auto"` poses on the CPU on SwiftShader).
    <MD2Instances key={which} model={models[which]} skin={SKINS[which]} limit={4} pose="shader" {...look}>
      {lighting === 'quake2' && <MD2Quake2Lighting shadelight={0.8} />}
      {shell !== undefined && <MD2Shell color={shell} />}
      {SCENE.map((placed, i) => {
        if (placed.which !== which) return null
        const { shell: ownShell, shadow, ...props } = each(i)
        return (
          <MD2Instance
            key={i}
            controller={placed.controller}
            position={[placed.x, -8, 0]}
            rotation={[0, placed.yaw, 0]}
            scale={0.55}
            {...props}
          >
            {ownShell !== undefined && <MD2Shell color={ownShell} />}
            {shadow === 'blob' && <MD2BlobShadow />}
          </MD2Instance>
        )
      })}
    </MD2Instances>
  ))
}

/** Each scene's CPU picture on WebGLRenderer, which the other renderers' pictures are held to. */
const webglPictures = new Map<string, Picture>()

for (const renderer of RENDERER_KINDS)
  describeOn(renderer)(`<MD2Instances> draws what <MD2Model> draws (${renderer})`, () => {
    const cases: {
      lighting: 'lambert' | 'quake2'
      shell?: 'blue'
      opacity?: number
      shadows?: boolean
      decode?: 'compute'
      pose?: 'auto' | 'cpu'
    }[] = [
      { lighting: 'lambert' },
      { lighting: 'quake2' },
      { lighting: 'lambert', shell: 'blue' },
      { lighting: 'quake2', opacity: 0.6 },
      { lighting: 'lambert', shadows: true },
      // The compute pass where there is one (real WebGPU), the vertex shader elsewhere: the same picture.
      { lighting: 'lambert', decode: 'compute' },
      { lighting: 'quake2', shell: 'blue', decode: 'compute' },
      { lighting: 'lambert', shadows: true, decode: 'compute' },
      // Posed on the CPU, asked or as "auto" chooses on a renderer drawing in software: the same picture.
      { lighting: 'quake2', shell: 'blue', pose: 'cpu' },
      { lighting: 'lambert', shadows: true, pose: 'auto' },
    ]
    for (const { lighting, shell, opacity, shadows = false, decode, pose } of cases) {
      const name = `lighting="${lighting}"${shell ? ` shell="${shell}"` : ''}${opacity ? ` opacity={${opacity}}` : ''}${shadows ? ' casting shadows on a floor' : ''}${decode ? ` decode="${decode}"` : ''}${pose ? ` pose="${pose}"` : ''}`
      test(name, async () => {
        const models = await loadModels()
        const light = (
          <>
            <directionalLight
              position={[30, 50, 80]}
              intensity={2.5}
              castShadow={shadows}
              shadow-camera-left={-80}
              shadow-camera-right={80}
              shadow-camera-top={60}
              shadow-camera-bottom={-40}
            />
            {shadows && (
              <mesh rotation={[-Math.PI / 2, 0, 0]} position={[0, -21, 0]} receiveShadow>
                <planeGeometry args={[400, 400]} />
                <meshLambertMaterial color="#808080" />
              </mesh>
            )}
          </>
        )
        const look = { lighting, shell, opacity, decode, ...(pose && { pose }) }
        const crowds: MD2Crowd[] = []
        const cpu = (
          <>
            {light}
            {cpuScene(models, { ...look, castShadow: shadows })}
          </>
        )
        const gpu = (castShadow: boolean) => (
          <>
            {light}
            {gpuScene(models, { ...look, castShadow })}
            <CrowdsIn into={crowds} />
          </>
        )
        const { stage, render } = await mount(cpu, { shadows, renderer })
        await expectRenderer(stage.canvas, renderer)
        // Skinned and lit: settled once the four are drawn and the skins have arrived.
        const [cpuPicture, gpuPicture] = await picturesOf({ stage, render }, gpu(shadows), ['the CPU scene', 'the GPU scene'])
        expectSamePicture(cpuPicture, gpuPicture)
        // The poses were blended where asked: by the compute pass on WebGPU only.
        expect(crowds.map((crowd) => crowd.decodedBy)).toEqual(
          crowds.map(() => (decode === 'compute' && renderer === 'webgpu' ? 'compute' : 'vertex')),
        )
        expect(crowds).toHaveLength(2)
        // Quake II light and shells are drawn from the stored rows (the shader lights by the instance's yaw, a
        // shell layer's rows are copies of the crowd's), on the WebGL2 backend too (these crowds fit its uniform
        // block); `decode: "compute"` and `pose: "cpu"` write the posed rows each frame, and so does "auto" where the
        // GL renderer draws in software (real WebGPU has the compute pass).
        const software = renderer !== 'webgpu' && drawsInSoftware()
        const posed = decode === 'compute' || pose === 'cpu' || (pose === 'auto' && software)
        expect(crowds.map((crowd) => crowd.drawnFrom)).toEqual(crowds.map(() => (posed ? 'posed' : 'stored')))
        // Posed by the CPU on WebGLRenderer, the poses themselves are uploaded (one texel a vertex: `PoseAtlas`).
        const atlas = renderer === 'webgl' && (pose === 'cpu' || (pose === 'auto' && software))
        expect(crowds.map((crowd) => (crowd as unknown as { renderer: CrowdRenderer }).renderer.state.atlas !== undefined)).toEqual(
          crowds.map(() => atlas),
        )
        const reference = webglPictures.get(name)
        if (renderer === 'webgl') webglPictures.set(name, cpuPicture)
        else if (reference && opacity === undefined && shell === undefined) {
          // Across renderers: the same picture but for a few edge pixels and rounding (within 8 levels).
          // (Where a translucent draw overlaps itself, WebGPURenderer's blend is near WebGLRenderer's, not
          // equal: those scenes are held to the CPU path here, and across renderers in translucency.test.tsx.)
          for (const picture of [cpuPicture, gpuPicture]) {
            const across = difference(reference, picture, undefined, 8)
            expect(across, `${across} pixels differ from WebGLRenderer's picture`).toBeLessThanOrEqual(
              Math.max(12, drawnPixels(cpuPicture) * 0.002),
            )
          }
        }
        if (shadows) {
          // The crowd's shadows are really on the floor: without them, hundreds of floor pixels change.
          render(gpu(false))
          const unshadowed = await stage.settle((p) => difference(gpuPicture, p) > 0, 'the crowd without shadows')
          expect(difference(gpuPicture, unshadowed)).toBeGreaterThan(300)
        }
      })
    }
  })

describeWebGPU('decode="compute" on WebGPU', () => {
  test('unmounting the crowds frees the storage their pass made, and a remount makes it again', async () => {
    const models = await loadModels()
    const crowds: MD2Crowd[] = []
    const scene = (
      <>
        <directionalLight position={[30, 50, 80]} intensity={2.5} />
        {gpuScene(models, { decode: 'compute' })}
        <CrowdsIn into={crowds} />
      </>
    )
    const { stage, render, renderer } = await mount(<></>, { renderer: 'webgpu' })
    await expectRenderer(stage.canvas, 'webgpu')
    const memory = (renderer.info as unknown as { memory: { storageAttributes: number; storageAttributesSize: number } }).memory
    await stage.settle((p) => coverage(p, undefined, BLACK) === 0, 'an empty canvas')
    const empty = { count: memory.storageAttributes, bytes: memory.storageAttributesSize }
    for (let round = 0; round < 2; round++) {
      render(scene)
      await stage.settle((p) => coverage(p, undefined, BLACK) > 0.05, 'the computed crowds')
      expect(crowds.map((crowd) => crowd.decodedBy)).toEqual(['compute', 'compute'])
      // Each crowd's pass: its rows, its positions and its normals (32 bytes per MD2 vertex per instance of the limit).
      const perVertex = 32 * 4 * (models.ogro.header.numVertices + models.ratamahatta.header.numVertices)
      expect(memory.storageAttributes - empty.count).toBeGreaterThanOrEqual(6)
      expect(memory.storageAttributesSize - empty.bytes).toBeGreaterThanOrEqual(perVertex)
      render(<></>)
      await stage.settle((p) => coverage(p, undefined, BLACK) === 0, 'an empty canvas again')
      expect({ count: memory.storageAttributes, bytes: memory.storageAttributesSize }).toEqual(empty)
    }
  })
})

/** Per instance of SCENE: a blob shadow, a shell, two shells and a shadow, an sRGB colour's shell and a shadow. */
const LOOKS: { shell?: ShellSpec | ShellSpec[]; shadow?: 'blob' }[] = [
  { shadow: 'blob' },
  { shell: 'red' },
  { shell: ['green', 'blue'], shadow: 'blob' },
  { shell: [0.9, 0.5, 0.2], shadow: 'blob' },
]

for (const renderer of RENDERER_KINDS)
  describeOn(renderer)(`<MD2Instance shell shadow> draws what <MD2Model shell shadow> draws (${renderer})`, () => {
    for (const lighting of ['lambert', 'quake2'] as const) {
      test(`lighting="${lighting}": each instance its own shells and blob shadow`, async () => {
        const models = await loadModels()
        const floor = (
          <>
            <LookingDown />
            <directionalLight position={[30, 50, 80]} intensity={2.5} />
            <mesh rotation={[-Math.PI / 2, 0, 0]} position={[0, -40, 0]}>
              <planeGeometry args={[400, 400]} />
              <meshBasicMaterial color="#808080" />
            </mesh>
          </>
        )
        const cpu = (
          <>
            {floor}
            {cpuScene(
              models,
              { lighting },
              () => ({}),
              (i) => (
                <>
                  {LOOKS[i]!.shadow === 'blob' && <MD2BlobShadow />}
                  {LOOKS[i]!.shell !== undefined && <MD2Shell color={LOOKS[i]!.shell!} />}
                </>
              ),
            )}
          </>
        )
        const gpu = (looks: 'all' | 'shells' | 'none') => (
          <>
            {floor}
            {gpuScene(models, { lighting }, (i) => ({
              shell: looks !== 'none' ? LOOKS[i]!.shell : undefined,
              shadow: looks === 'all' ? LOOKS[i]!.shadow : undefined,
            }))}
          </>
        )
        // The floor alone first: each scene is then waited for as thousands of pixels drawn over it, the
        // floor still showing (while a scene suspends, loading, the canvas shows nothing at all).
        const { stage, render } = await mount(floor, { renderer })
        await expectRenderer(stage.canvas, renderer)
        const floorShows = (p: Picture) => coverage(p, undefined, BLACK) > 0.5
        const bare = await stage.settle(floorShows, 'the floor alone')
        const overFloor = (p: Picture) => floorShows(p) && difference(bare, p) > 5000
        render(cpu)
        const cpuPicture = await stage.settle(overFloor, 'the CPU scene')
        render(floor)
        await stage.settle((p) => difference(bare, p) === 0, 'the floor alone again')
        render(gpu('all'))
        const gpuPicture = await stage.settle(overFloor, 'the GPU scene')
        const drawn = difference(bare, cpuPicture)
        const differing = difference(cpuPicture, gpuPicture)
        expect(drawn).toBeGreaterThan(5000)
        expect(differing, `${differing} of ${drawn} pixels drawn over the floor differ`).toBeLessThanOrEqual(Math.max(12, drawn * 0.002))
        // The shells and the shadows are really there: without each, hundreds of pixels change.
        render(gpu('shells'))
        const unshadowed = await stage.settle((p) => overFloor(p) && difference(gpuPicture, p) > 0, 'the GPU scene without shadows')
        expect(difference(gpuPicture, unshadowed)).toBeGreaterThan(500)
        render(gpu('none'))
        const plain = await stage.settle((p) => overFloor(p) && difference(unshadowed, p) > 0, 'the GPU scene without shells')
        expect(difference(unshadowed, plain)).toBeGreaterThan(3000)
      })
    }
  })

/** A crowd built for a device with 256-texel textures: its frames wrap into blocks of rows. */
function SmallDeviceCrowd({ model, pose }: { model: MD2ModelData; pose: { pose: MD2Pose } }) {
  const crowd = useMemo(() => {
    const made = new MD2Crowd(model, { limit: 1, maxTextureSize: 256 })
    made.setTransform(0, { position: new Vector3(0, -8, 0), rotation: 0.5, scale: 1.4 })
    made.setPose(0, pose.pose)
    return made
  }, [model, pose])
  useEffect(() => () => crowd.dispose(), [crowd])
  useFrame((state, delta) => crowd.update(delta, state.camera))
  return <primitive object={crowd} />
}

test("frames past the device's row limit, in a second and third block of rows, draw as the CPU path draws them", async () => {
  const model = manyFrameModel(600)
  const controller = pose(555, 556, 0.25, [300, 301, 0.5, 0.4])
  const light = <directionalLight position={[30, 50, 80]} intensity={2.5} />
  const { stage, render } = await mount(
    <>
      {light}
      <MD2Model model={model} skin={null} controller={controller} position={[0, -8, 0]} rotation={[0, 0.5, 0]} scale={1.4} />
    </>,
  )
  const gpu = (
    <>
      {light}
      <SmallDeviceCrowd model={model} pose={controller} />
    </>
  )
  const [cpuPicture, gpuPicture] = await picturesOf({ stage, render }, gpu, ['the CPU model', 'the GPU model'], 0.01)
  expect(difference(cpuPicture, gpuPicture)).toBeLessThanOrEqual(Math.max(12, drawnPixels(cpuPicture) * 0.002))
})

for (const renderer of RENDERER_KINDS)
  testOn(renderer)(
    `a crowd sized for 5,000 draws what a crowd of 4 draws (${renderer}: its instance data past a uniform buffer)`,
    async () => {
      const ogro = await load(OGRO, OGRO)
      const scene = (limit: number) => (
        <>
          <directionalLight position={[30, 50, 80]} intensity={2.5} />
          <MD2Instances model={ogro} skin={OGRO_SKIN} limit={limit}>
            <MD2Quake2Lighting shadelight={0.8} />
            {SCENE.filter((p) => p.which === 'ogro').map((placed, i) => (
              <MD2Instance key={i} controller={placed.controller} position={[placed.x, -8, 0]} rotation={[0, placed.yaw, 0]} scale={0.55} />
            ))}
          </MD2Instances>
        </>
      )
      const { stage, render } = await mount(scene(4), { renderer })
      await expectRenderer(stage.canvas, renderer)
      const small = await stage.settle((p) => coverage(p, undefined, BLACK) > 0.01, 'a crowd of 4')
      render(<></>)
      await stage.settle((p) => coverage(p, undefined, BLACK) === 0, 'an empty canvas')
      const warn = vi.spyOn(console, 'warn')
      render(scene(5000))
      const large = await stage.settle((p) => coverage(p, undefined, BLACK) > 0.01, 'the same instances in a crowd of 5,000')
      expect(difference(small, large)).toBe(0)
      // WebGPURenderer's WebGL2 backend reads more than 1,024 matrices as vertex inputs: it says it draws 1,024.
      const said = warn.mock.calls.filter(([message]) => String(message).includes('draws at most 1024 instances'))
      expect(said).toHaveLength(renderer === 'webgpu-webgl2' ? 1 : 0)
      warn.mockRestore()
    },
  )
