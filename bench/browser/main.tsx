/**
 * The browser benchmark page (built by bench/browser.ts with vite, driven by playwright).
 *
 *   ?mode=animate&lib=md2|md2-paused|md2-shared|md2-gpu|floor|three&n=200   N animated Ogros, frames stepped by window.bench.run
 *     (md2-gpu: one MD2Crowd; floor: the same triangles as one InstancedMesh of a static frame;
 *     md2-gpu-shader / md2-gpu-cpu: md2-gpu with its poses worked out by the shader / the CPU (md2-gpu: "auto");
 *     md2-gpu-armed: the Ogros' crowd and their weapon.md2 as a synced follower crowd;
 *     soldier-gpu / soldier-gpu-armed: UFO:AI soldiers walking, without and with a rifle on tag_rweapon;
 *     md2-compute: md2-gpu with decode "compute": the blend in a compute pass on WebGPU;
 *     md2-gpu-shadowed / md2-compute-shadowed: the same crowds also casting a shadow map;
 *     md2-cull / md2-vertex-cull: N running Ogros of which one in ten is in view (the rest behind the camera),
 *     culled by the compute pass into an indirect draw on WebGPU, or by the vertex stage)
 *     md2-character / three-character: N MD2Characters (the library's / three.js's class, three's code as the
 *     webgl_loader_md2 page writes it: loadParts each, weapon shown, running)
 *   &renderer=webgl|webgpu|webgpu-webgl2   the renderer (default webgl; see renderers.ts)
 *   ?mode=load&lib=md2|three[&skin=1]   the soldier: suspend → first drawn frame
 *   ?mode=parts                         where the soldier's load time goes
 *
 * Both libraries render in the same R3F root (same renderer settings, lights, camera, canvas size);
 * three.js's side is MD2Loader geometry (parsed once, shared by every mesh, its best case: MD2Character
 * parses one per character) with one AnimationMixer per mesh as MD2Character does, and one shared
 * MeshLambertMaterial with the same skin.
 */
import { advance, createRoot, extend, useThree, type RootState } from '@react-three/fiber'
import * as THREE from 'three'
import { Suspense, useEffect, type ReactNode } from 'react'
import {
  type AnimationClip,
  type BufferGeometry,
  Mesh,
  MeshLambertMaterial,
  type Object3D,
  SRGBColorSpace,
  type Texture,
  TextureLoader,
} from 'three'
import { MD2Loader as ThreeMD2Loader } from 'three/addons/loaders/MD2Loader.js'
import { MD2Character as ThreeMD2Character } from 'three/addons/misc/MD2Character.js'
import { MD2Character } from '../../src/three/character/MD2Character'
import { parseAnimationTable } from '../../src/core/format/animationTable'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { decodePCX } from '../../src/core/images/pcx'
import { parseMD2Tags } from '../../src/core/tags/parseMD2Tags'
import type { MD2ModelData } from '../../src/core/format/types'
import { MD2Model } from '../../src/react/MD2Model'
import { useMD2 } from '../../src/react/loading/useMD2'
import { createSkinTexture } from '../../src/three/loaders/MD2SkinLoader'
import { createRifle } from '../../stories/support/rifle'
import { benchGl, drawnBy, gpuSync, isRendererKind } from './renderers'
import { gpuBytes } from './gpu-bytes'
import { ArmedCrowd, CullOgros, FloorOgros, GpuOgros, ThreeOgros, grid, loadCharacters } from './ogro-scenes'

const OGRO_URL = '/quake2/ogro/tris.MD2'
const OGRO_SKIN_URL = '/quake2/ogro/png/igdosh.png'
const OGRO_WEAPON_URL = '/quake2/ogro/weapon.md2'
const OGRO_WEAPON_SKIN_URL = '/quake2/ogro/weapon.pcx'
const SOLDIER_TAGS_URL = '/ufoai/soldier-male/body.tag'
const SOLDIER_URL = '/ufoai/soldier-male/body.md2'
const SOLDIER_SKIN_URL = '/ufoai/soldier-male/body.png'
const SOLDIER_ANM_URL = '/ufoai/soldier-male/body.anm'
const WIDTH = 800
const HEIGHT = 600
const STEP = 1 / 60

const params = new URLSearchParams(location.search)
const mode = params.get('mode') ?? 'animate'
const lib = params.get('lib') ?? 'md2'
const count = Number(params.get('n') ?? '1')
const rendererParam = params.get('renderer') ?? 'webgl'
const rendererKind = isRendererKind(rendererParam) ? rendererParam : 'webgl'

interface Bench {
  ready: Promise<void>
  error?: string
  /** Steps `frames` frames at 1/60 s each; per frame: JS time, and JS + GPU time (a 1-pixel read waits for the GPU). */
  run?: (frames: number, maxMs: number) => Promise<{ cpuMs: number[]; frameMs: number[] }>
  /** requestAnimationFrame intervals over `ms`, stepping one frame per callback. */
  raf?: (ms: number) => Promise<number[]>
  /** Bytes the page has handed to WebGL, by kind, from the scene's geometries (see gpuBytes). */
  gpu?: () => Record<string, number>
  /** What draws the page: the renderer and backend, and on WebGPU the adapter. */
  drawnBy?: () => string
  /** Load mode: ms from the first suspend to the first drawn frame, and its parts. */
  load?: Promise<Record<string, number>>
}

const bench: Bench = { ready: Promise.resolve() }
;(window as unknown as { bench: Bench }).bench = bench
window.addEventListener('error', (event) => (bench.error = String(event.message)))

async function fetchBytes(url: string): Promise<ArrayBuffer> {
  const response = await fetch(url)
  if (!response.ok) throw new Error(`${url}: ${response.status}`)
  return response.arrayBuffer()
}

function loadTexture(url: string): Promise<Texture> {
  return new TextureLoader().loadAsync(url).then((texture) => {
    texture.colorSpace = SRGBColorSpace
    return texture
  })
}

// createRoot, unlike <Canvas>, does not register three's classes as JSX elements by itself.
extend(THREE as unknown as Parameters<typeof extend>[0])

const canvas = document.createElement('canvas')
canvas.style.width = `${WIDTH}px`
canvas.style.height = `${HEIGHT}px`
document.getElementById('root')!.appendChild(canvas)

async function makeRoot(frameloop: 'never' | 'always', camera: { position: [number, number, number]; far: number }, shadows = false) {
  const root = createRoot(canvas)
  await root.configure({
    frameloop,
    dpr: 1,
    shadows: { enabled: shadows, type: THREE.PCFShadowMap },
    size: { width: WIDTH, height: HEIGHT, top: 0, left: 0 },
    gl: benchGl(rendererKind),
    camera: { position: camera.position, fov: 50, near: 1, far: camera.far },
    onCreated: (state) => state.camera.lookAt(0, 0, 0),
  })
  return root
}

/** The scene's lights; with `shadowOver`, the sun casts a shadow map over a square that wide. */
function Lights({ shadowOver }: { shadowOver?: number }) {
  const half = (shadowOver ?? 0) / 2
  return (
    <>
      <ambientLight intensity={0.6} />
      <directionalLight
        position={[200, 400, 300]}
        intensity={2}
        castShadow={shadowOver !== undefined}
        shadow-mapSize={[2048, 2048]}
        shadow-camera-left={-half}
        shadow-camera-right={half}
        shadow-camera-top={half}
        shadow-camera-bottom={-half}
        shadow-camera-far={4000}
      />
    </>
  )
}

function wireRun(get: () => RootState, step: (time: number) => void) {
  let time = 0
  const sync = gpuSync(get().gl)
  bench.run = async (frames, maxMs) => {
    const cpuMs: number[] = []
    const frameMs: number[] = []
    const start = performance.now()
    for (let f = 0; f < frames && performance.now() - start < maxMs; f++) {
      const t0 = performance.now()
      time += STEP
      step(time)
      const t1 = performance.now()
      await sync()
      const t2 = performance.now()
      cpuMs.push(t1 - t0)
      frameMs.push(t2 - t0)
      // Let the browser breathe (and playwright talk) between frames.
      if (f % 10 === 9) await new Promise((resolve) => setTimeout(resolve, 0))
    }
    return { cpuMs, frameMs }
  }
  bench.raf = (ms) =>
    new Promise((resolve) => {
      const intervals: number[] = []
      let last = performance.now()
      const end = last + ms
      const tick = (now: number) => {
        intervals.push(now - last)
        last = now
        time += STEP
        step(time)
        if (now < end) requestAnimationFrame(tick)
        else resolve(intervals.slice(1))
      }
      requestAnimationFrame(tick)
    })
  bench.gpu = () => {
    const context = get().gl.getContext()
    const maxTextureSize = context instanceof WebGL2RenderingContext ? (context.getParameter(context.MAX_TEXTURE_SIZE) as number) : 8192
    return gpuBytes(get().scene, maxTextureSize)
  }
  bench.drawnBy = () => {
    if (rendererKind === 'webgl') {
      const gl = get().gl.getContext() as WebGL2RenderingContext
      const info = gl.getExtension('WEBGL_debug_renderer_info')
      return `WebGLRenderer on ${String(info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER))}`
    }
    return `${drawnBy.backend ?? '?'}${drawnBy.adapter ? ` on adapter ${drawnBy.adapter}` : ''}`
  }
}

/** The root's state getter, published by <Grab> once the Canvas exists. */
const root: { get: () => RootState } = {
  get: () => {
    throw new Error('no root yet')
  },
}
const getState = () => root.get()
function Grab() {
  const get = useThree((state) => state.get)
  useEffect(() => {
    root.get = get
  }, [get])
  return null
}

async function animate(): Promise<void> {
  if (rendererParam !== rendererKind) throw new Error(`renderer=${rendererParam}: not webgl, webgpu or webgpu-webgl2`)
  const [buffer, skin] = await Promise.all([fetchBytes(OGRO_URL), loadTexture(OGRO_SKIN_URL)])
  // md2-cull: the view frames the tenth in view.
  const culling = lib === 'md2-cull' || lib === 'md2-vertex-cull'
  const side = Math.ceil(Math.sqrt(Math.max(culling ? Math.ceil(count / 10) : count, 1)))
  const distance = 80 + side * 60
  // `-shadowed`: the GPU crowds also cast a shadow map, a second pass over every Ogro.
  const shadowed = lib.endsWith('-shadowed')
  const kind = shadowed ? lib.slice(0, -'-shadowed'.length) : lib
  const root = await makeRoot('never', { position: [0, distance * 0.8, distance * 1.1], far: distance * 4 }, shadowed)
  let scene: ReactNode
  if (lib === 'soldier-gpu' || lib === 'soldier-gpu-armed') {
    const [soldierBuffer, soldierSkin, anm, tagBytes] = await Promise.all([
      fetchBytes(SOLDIER_URL),
      loadTexture(SOLDIER_SKIN_URL),
      fetch(SOLDIER_ANM_URL).then((response) => response.text()),
      fetchBytes(SOLDIER_TAGS_URL),
    ])
    const soldier: MD2ModelData = parseMD2(soldierBuffer, { name: SOLDIER_URL, animations: parseAnimationTable(anm) })
    const tags = parseMD2Tags(tagBytes, { name: SOLDIER_TAGS_URL })
    const rifle = lib === 'soldier-gpu-armed' ? { model: createRifle(), skin: null, tag: 'tag_rweapon' } : undefined
    scene = <ArmedCrowd model={soldier} skin={soldierSkin} tags={tags} n={count} animation="walk1" weapon={rifle} />
  } else if (lib === 'md2-gpu-armed') {
    const model: MD2ModelData = parseMD2(buffer, { name: OGRO_URL })
    const [weaponBytes, weaponSkinBytes] = await Promise.all([fetchBytes(OGRO_WEAPON_URL), fetchBytes(OGRO_WEAPON_SKIN_URL)])
    const weapon: MD2ModelData = parseMD2(weaponBytes, { name: OGRO_WEAPON_URL })
    const weaponSkin = createSkinTexture(decodePCX(new Uint8Array(weaponSkinBytes)), OGRO_WEAPON_SKIN_URL)
    scene = <ArmedCrowd model={model} skin={skin} n={count} animation="run" weapon={{ model: weapon, skin: weaponSkin }} />
  } else if (lib === 'md2-character' || lib === 'three-character') {
    scene = await loadCharacters({ n: count, Class: lib === 'md2-character' ? MD2Character : ThreeMD2Character })
  } else if (lib === 'three') {
    const geometry = new ThreeMD2Loader().parse(buffer)
    const clip = (geometry as BufferGeometry & { animations: AnimationClip[] }).animations.find((candidate) => candidate.name === 'run')!
    const material = new MeshLambertMaterial({ map: skin })
    scene = <ThreeOgros geometry={geometry} clip={clip} material={material} n={count} />
  } else if (culling) {
    const model: MD2ModelData = parseMD2(buffer, { name: OGRO_URL })
    scene = <CullOgros model={model} skin={skin} n={count} by={lib === 'md2-cull' ? 'compute' : 'vertex'} behind={distance * 5} />
  } else if (kind === 'md2-gpu' || kind === 'md2-gpu-shader' || kind === 'md2-gpu-cpu' || kind === 'md2-compute' || lib === 'floor') {
    const model: MD2ModelData = parseMD2(buffer, { name: OGRO_URL })
    scene =
      lib === 'floor' ? (
        <FloorOgros model={model} skin={skin} n={count} />
      ) : (
        <GpuOgros
          model={model}
          skin={skin}
          n={count}
          decode={kind === 'md2-compute' ? 'compute' : undefined}
          pose={kind === 'md2-gpu-shader' ? 'shader' : kind === 'md2-gpu-cpu' ? 'cpu' : undefined}
          castShadow={shadowed}
        />
      )
  } else {
    // Variants for diagnosis: md2-shared (one material for all), md2-paused (paused: no uploads),
    // md2-basic (MeshBasicMaterial: no normals).
    const model: MD2ModelData = parseMD2(buffer, { name: OGRO_URL })
    const shared =
      lib === 'md2-shared'
        ? new MeshLambertMaterial({ map: skin })
        : lib === 'md2-basic'
          ? new THREE.MeshBasicMaterial({ map: skin })
          : undefined
    scene = grid(count, 60).map((position, i) => (
      <MD2Model key={i} model={model} skin={skin} material={shared} playing={lib !== 'md2-paused'} animation="run" position={position} />
    ))
  }
  root.render(
    <>
      <Grab />
      <Lights shadowOver={shadowed ? side * 60 + 120 : undefined} />
      {scene}
    </>,
  )
  // Two frames: mount, first render (shader compile), then the page is ready to be timed.
  await new Promise((resolve) => setTimeout(resolve, 50))
  advance(0)
  advance(STEP / 2)
  wireRun(
    () => getState(),
    (time) => advance(time),
  )
}

function LoadProbe({
  onDrawn,
  children,
}: {
  onDrawn: (mesh: Mesh) => void
  children: (ref: (group: Object3D | null) => void) => ReactNode
}) {
  const ref = (group: Object3D | null) => {
    const mesh = group?.children[0] as Mesh | undefined
    if (mesh) mesh.onAfterRender = () => onDrawn(mesh)
  }
  return <>{children(ref)}</>
}

async function load(): Promise<Record<string, number>> {
  const withSkin = params.get('skin') === '1'
  // The animation table is the caller's, fetched before the clock starts (three.js has none).
  const table = parseAnimationTable(await (await fetch(SOLDIER_ANM_URL)).text())
  const root = await makeRoot('always', { position: [0, 60, 160], far: 2000 })
  const pixel = new Uint8Array(4)
  let resolveDrawn!: (times: Record<string, number>) => void
  const drawn = new Promise<Record<string, number>>((resolve) => (resolveDrawn = resolve))
  let done = false
  const times: Record<string, number> = {}
  const t0 = performance.now()
  const finish = (mesh: Mesh) => {
    if (done) return
    done = true
    mesh.onAfterRender = () => {}
    // After this render call returns: wait for the GPU, then stop the clock.
    queueMicrotask(() => {
      const gl = getState().gl.getContext()
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel)
      times.total = performance.now() - t0
      resolveDrawn(times)
    })
  }
  if (lib === 'three') {
    const [geometry, skin] = await Promise.all([
      new ThreeMD2Loader().loadAsync(SOLDIER_URL),
      withSkin ? loadTexture(SOLDIER_SKIN_URL) : Promise.resolve(null),
    ])
    times.loaded = performance.now() - t0
    const mesh = new Mesh(geometry, new MeshLambertMaterial({ map: skin }))
    mesh.onAfterRender = () => finish(mesh)
    root.render(
      <>
        <Grab />
        <Lights />
        <primitive object={mesh} />
      </>,
    )
  } else {
    useMD2.preload(SOLDIER_URL).then(() => (times.loaded = performance.now() - t0))
    root.render(
      <>
        <Grab />
        <Lights />
        <Suspense fallback={null}>
          <LoadProbe onDrawn={finish}>
            {(ref) => (
              <MD2Model ref={ref} url={SOLDIER_URL} skin={withSkin ? SOLDIER_SKIN_URL : null} animationTable={table} animation="walk0" />
            )}
          </LoadProbe>
        </Suspense>
      </>,
    )
  }
  return drawn
}

/** Where load time goes: a plain fetch, three's FileLoader (used by both MD2Loaders), and the parse. */
async function loadParts(): Promise<Record<string, number>> {
  const t0 = performance.now()
  const buffer = await fetchBytes(`${SOLDIER_URL}?plain`)
  const t1 = performance.now()
  await new THREE.FileLoader().setResponseType('arraybuffer').loadAsync(`${SOLDIER_URL}?fileloader`)
  const t2 = performance.now()
  const model = parseMD2(buffer)
  const t3 = performance.now()
  const { getMD2RenderData } = await import('../../src/three/mesh/MD2Geometry')
  const t4 = performance.now()
  getMD2RenderData(model)
  const t5 = performance.now()
  new ThreeMD2Loader().parse(buffer)
  const t6 = performance.now()
  return { fetch: t1 - t0, fileLoader: t2 - t1, parseMD2: t3 - t2, renderData: t5 - t4, threeParse: t6 - t5 }
}

if (mode === 'animate') bench.ready = animate()
else if (mode === 'parts') bench.load = loadParts()
else bench.load = load()
bench.ready.catch((error: unknown) => (bench.error = String(error)))
bench.load?.catch((error: unknown) => (bench.error = String(error)))
