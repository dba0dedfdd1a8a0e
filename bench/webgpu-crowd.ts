/**
 * The GPU crowd on WebGPU in Node: three's `WebGPURenderer` on Dawn (`webgpu` on npm, the WebGPU
 * implementation Chrome uses), drawing 1,000 to 1,000,000 Ogros at 1280×720, every one in view, three
 * ways (bench/webgpu-paths.ts): the drawing floor (the same triangles, one static InstancedMesh), the
 * library's `MD2Crowd` (every instance animated), and three.js's instanced morph path.
 *
 * A frame: the path's JavaScript (the crowd's `update()`, three's mixer and `setMorphAt` per instance),
 * `renderer.render`, then `await device.queue.onSubmittedWorkDone()` (the GPU done with it); wall time,
 * median per path. The paths' frames alternate (floor, crowd, three, floor…) so that a machine's load
 * falls on all alike; the ratios come from one run. Every path's first frame (its pipelines built) is
 * not timed; its picture is read back to count the pixels it drew, and GPU errors are caught in error
 * scopes: a path that fails is reported with the error, and the run goes on.
 *
 * On a machine without a GPU it runs on SwiftShader's Vulkan (bench/lib/dawn.ts), a CPU renderer: a
 * count whose frame would take longer than `maxFrameS` (predicted from the last count, linearly) is
 * reported as over time instead of drawn.
 */
import { readFileSync } from 'node:fs'
import { PerspectiveCamera } from 'three'
import { parseMD2 } from '../src/core/format/parseMD2'
import { decodePCX } from '../src/core/images/pcx'
import { createSkinTexture } from '../src/three/loaders/MD2SkinLoader'
import { type NodeWebGPU, nodeWebGPU } from './lib/dawn'
import { OGRO, readArrayBuffer } from './lib/models'
import { type Table, fmt, median, ratio } from './lib/stats'
import { type DrawPath, type PathName, crowdPath, floorPath, threeMorphPath } from './webgpu-paths'

export function isPathName(name: string): name is PathName {
  return name === 'floor' || name === 'crowd' || name === 'three'
}

export const WIDTH = 1280
export const HEIGHT = 720

export interface WebGPUCrowdOptions {
  counts: readonly number[]
  /** Timed frames of each path per count (fewer when they would pass `countBudgetS`; at least 2). */
  frames: number
  /** A count is not drawn on a path whose frame is predicted to take longer than this. */
  maxFrameS: number
  /** About how long one count's timed frames may take, all paths together. */
  countBudgetS: number
  /** The paths drawn (default all three). */
  paths?: readonly PathName[]
}

interface Outcome {
  /** Median ms per frame. */
  ms?: number
  /** The path's own JavaScript per frame, median ms. */
  js?: number
  /** Why it has no time: a GPU error, or over the time cap. */
  failed?: string
  pixels?: number
  inView?: number
}

type Renderer = import('three/webgpu').WebGPURenderer
type Target = import('three/webgpu').RenderTarget

/** GPU errors of one frame, caught in error scopes (validation, out of memory, internal). */
async function scoped<T>(device: GPUDevice, run: () => Promise<T>): Promise<{ value?: T; error?: string }> {
  const filters: GPUErrorFilter[] = ['validation', 'out-of-memory', 'internal']
  for (const filter of filters) device.pushErrorScope(filter)
  let value: T | undefined
  let thrown: string | undefined
  try {
    value = await run()
  } catch (error) {
    thrown = error instanceof Error ? error.message : String(error)
  }
  const errors: string[] = []
  for (let i = 0; i < filters.length; i++) {
    const error = await device.popErrorScope()
    if (error) errors.push(error.message.split('\n')[0]!.replace(/\.+$/, ''))
  }
  if (thrown !== undefined) errors.unshift(thrown)
  return errors.length ? { error: errors.join('; ') } : { value }
}

function cameraFor(n: number): PerspectiveCamera {
  const side = Math.ceil(Math.sqrt(n))
  const distance = 80 + side * 60
  const camera = new PerspectiveCamera(50, WIDTH / HEIGHT, 1, distance * 4)
  camera.position.set(0, distance * 0.8, distance * 1.1)
  camera.lookAt(0, 0, 0)
  camera.updateMatrixWorld()
  return camera
}

async function coveredPixels(renderer: Renderer, target: Target): Promise<number> {
  const pixels = (await renderer.readRenderTargetPixelsAsync(target, 0, 0, WIDTH, HEIGHT)) as Uint8Array
  let covered = 0
  // Cleared to transparent black: every pixel an Ogro covered has alpha.
  for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) covered++
  return covered
}

export async function runWebGPUCrowdBench(options: WebGPUCrowdOptions): Promise<Table> {
  const started = performance.now()
  const dawn: NodeWebGPU = await nodeWebGPU()
  const { WebGPURenderer, RenderTarget } = await import('three/webgpu')
  // The crowd's WebGPU side, as a WebGPU app imports it (react-three-md2/webgpu).
  await import('../src/three/webgpu/index')
  // No canvas is drawn to (the frames go to a RenderTarget); three keeps its size on this object.
  const canvas = { width: WIDTH, height: HEIGHT, style: {} } as unknown as HTMLCanvasElement
  const renderer = new WebGPURenderer({ canvas, antialias: false, powerPreference: 'high-performance' })
  await renderer.init()
  const backend = renderer.backend as unknown as { isWebGPUBackend?: boolean; device?: GPUDevice }
  if (!backend.isWebGPUBackend || !backend.device) throw new Error('WebGPURenderer did not start on the WebGPU backend')
  const device = backend.device
  const uncaptured: string[] = []
  renderer.onError = (error) => uncaptured.push(typeof error === 'string' ? error : (error as { message: string }).message)
  const target = new RenderTarget(WIDTH, HEIGHT)
  renderer.setRenderTarget(target)
  renderer.setClearColor(0x000000, 0)

  const buffer = readArrayBuffer(OGRO)
  const model = parseMD2(buffer, { name: 'tris.MD2' })
  const skin = createSkinTexture(decodePCX(new Uint8Array(readFileSync(OGRO.replace(/tris\.MD2$/, 'igdosh.pcx')))), 'igdosh.pcx')
  const dt = 1 / 60
  const frame = async (path: DrawPath, camera: PerspectiveCamera): Promise<{ ms: number; js: number }> => {
    const start = performance.now()
    const js = path.step(dt, camera)
    dawn.frame()
    renderer.render(path.scene, camera)
    await device.queue.onSubmittedWorkDone()
    return { ms: performance.now() - start, js }
  }
  // three's morph path with MD2Loader's geometry as it is, once at the smallest count: on r187 it throws
  // (webgpu-paths.ts), and the table's three column then draws the same frames as relative targets.
  const names = (['floor', 'crowd', 'three'] as const).filter((name) => !options.paths || options.paths.includes(name))
  const probeCount = Math.min(16, ...options.counts)
  const probe = !names.includes('three')
    ? {}
    : await scoped(device, async () => {
        const path = threeMorphPath(buffer, skin, probeCount, false)
        try {
          return await frame(path, cameraFor(probeCount))
        } finally {
          path.dispose()
        }
      })
  const relative = probe.error !== undefined
  const build: Record<PathName, (n: number) => DrawPath> = {
    floor: (n) => floorPath(model, skin, n),
    crowd: (n) => crowdPath(model, skin, n),
    three: (n) => threeMorphPath(buffer, skin, n, relative),
  }
  /** Per path, the last count drawn and its ms per frame, to predict the next. */
  const last = new Map<PathName, { n: number; ms: number }>()
  /** Per path, the error that stopped it (it is not tried at larger counts). */
  const stopped = new Map<PathName, string>()
  const rows: (string | number)[][] = []

  for (const n of options.counts) {
    const camera = cameraFor(n)
    const results = new Map<PathName, Outcome>()
    const live: { path: DrawPath; ms: number[]; js: number[]; frames: number }[] = []
    const predict = (name: PathName) => {
      const previous = last.get(name)
      return previous ? (previous.ms * n) / previous.n : 0
    }
    for (const name of names) {
      // The floor and the crowd are drawn or not together: a crowd without its floor has no ratio.
      const predicted = name === 'three' ? predict(name) : Math.max(predict('floor'), predict('crowd'))
      if (stopped.has(name)) {
        results.set(name, { failed: stopped.get(name) })
        continue
      }
      // Past the largest texture side three's morph texture (a row per instance) cannot be made: drawn
      // anyway, to report how it fails (it fails before drawing anything).
      const overLimit = name === 'three' && n > device.limits.maxTextureDimension2D
      if (predicted > options.maxFrameS * 1000 && !overLimit) {
        results.set(name, { failed: `over time: ~${fmt(predicted / 1000, 0)} s a frame predicted (cap ${options.maxFrameS} s)` })
        continue
      }
      let path: DrawPath | undefined
      const first = await scoped(device, async () => {
        path = build[name](n)
        return frame(path, camera)
      })
      if (first.error !== undefined || !path) {
        const why = `fails from ${n.toLocaleString('en-US')}: ${first.error ?? 'not built'}`
        results.set(name, { failed: why })
        stopped.set(name, why)
        path?.dispose()
        continue
      }
      results.set(name, { pixels: await coveredPixels(renderer, target), inView: path.inView() })
      // The floor and the crowd draw a second frame untimed: the first builds pipelines (and SwiftShader
      // compiles them on first use); the second's time is what the budget and the next count go by.
      // three's path, whose frame takes the longest, goes by its first.
      let steady = first.value!.ms
      if (name !== 'three') {
        const second = await scoped(device, () => frame(path!, camera))
        if (second.error !== undefined) {
          const why = `fails from ${n.toLocaleString('en-US')}: ${second.error}`
          results.set(name, { failed: why })
          stopped.set(name, why)
          path.dispose()
          continue
        }
        steady = second.value!.ms
      }
      live.push({ path, ms: [], js: [], frames: 0 })
      last.set(name, { n, ms: steady })
    }
    // How many timed frames fit the budget: as many of the floor as of the crowd (at least 2), whose
    // ratio the table is for; at least 1 of three's.
    const share = (options.countBudgetS * 1000) / Math.max(live.length, 1)
    const fit = (name: PathName) => Math.floor(share / Math.max(last.get(name)?.ms ?? 0, 1))
    for (const entry of live) {
      const name = entry.path.name
      const fits = name === 'three' ? fit(name) : Math.min(fit('floor'), fit('crowd'))
      entry.frames = Math.max(name === 'three' ? 1 : 2, Math.min(options.frames, fits))
    }
    const rounds = Math.max(0, ...live.map((entry) => entry.frames))
    for (let round = 0; round < rounds; round++) {
      for (const entry of live) {
        if (results.get(entry.path.name)!.failed || round >= entry.frames) continue
        const timed = await scoped(device, () => frame(entry.path, camera))
        if (timed.error !== undefined) {
          const why = `fails from ${n.toLocaleString('en-US')}: ${timed.error}`
          results.get(entry.path.name)!.failed = why
          stopped.set(entry.path.name, why)
          continue
        }
        entry.ms.push(timed.value!.ms)
        entry.js.push(timed.value!.js)
      }
    }
    for (const { path, ms, js } of live) {
      const outcome = results.get(path.name)!
      if (!outcome.failed) {
        // The crowd's update() is a fraction of a millisecond against frames of seconds on a CPU
        // renderer: 30 more calls (the frame's time, no render between) steady its median.
        if (path.name === 'crowd') for (let k = 0; k < 30; k++) js.push(path.step(dt, camera))
        outcome.ms = median(ms)
        outcome.js = median(js)
        last.set(path.name, { n, ms: outcome.ms })
      }
      path.dispose()
    }
    rows.push(row(n, results, live.map((entry) => `${entry.path.name[0]}${entry.ms.length}`).join(' ')))
    console.log(`  ${n.toLocaleString('en-US')}: ${rows.at(-1)!.slice(1).join(' · ')}`)
  }
  renderer.dispose()
  target.dispose()
  skin.dispose()
  const minutes = (performance.now() - started) / 60000
  const failures = [...stopped].map(([name, why]) => `${name}: ${why}`)
  return {
    title: `WebGPU in Node (Dawn): N Ogros at ${WIDTH}×${HEIGHT}, every one in view — the floor, the GPU crowd, three's instanced morph`,
    note:
      `Adapter: ${dawn.adapter}${dawn.software ? ' (SwiftShader: Vulkan on the CPU, no GPU found)' : ''}. ` +
      `ms per frame: the path's JavaScript, render(), then queue.onSubmittedWorkDone() (wall time, median of the timed frames; frames of the paths alternate). ` +
      `floor: createMD2Geometry's Ogro (indexed, frame 0) as one InstancedMesh with MeshLambertMaterial and the skin, its matrices in storage as the crowd's, nothing updated; ` +
      `crowd: MD2Crowd, every instance playing a looped animation, update() each frame; ` +
      `three: MD2Loader's geometry (198 morph targets, not indexed${relative ? ', made relative to frame 0' : ''}) on one InstancedMesh, an AnimationMixer set per instance and setMorphAt each frame (three's webgpu_instancing_morph). ` +
      `update() ms: the crowd's update(), median of the timed frames and 30 more calls. three's JS: its mixer and setMorphAt for every instance. ` +
      `"pixels": what each path drew in its first frame (of ${(WIDTH * HEIGHT).toLocaleString('en-US')}); "timed frames": f(loor) c(rowd) t(hree), after the first.`,
    head: [
      'instances',
      'floor ms',
      'crowd ms',
      'crowd × floor',
      'three ms',
      'three × floor',
      'update() ms',
      "three's JS ms",
      'in view',
      'pixels floor / crowd / three',
      'timed frames',
    ],
    rows,
    footer: [
      !names.includes('three')
        ? `three's path not drawn (--paths).`
        : relative
          ? `three's path with MD2Loader's geometry as it is (absolute morph targets) fails at ${probeCount.toLocaleString('en-US')}: ${probe.error} (r187's Morph.js sums an InstancedMesh's morphTargetInfluences, which it has not); the three column draws the same frames as relative targets (each minus frame 0), as a glTF's are.`
          : `three's path draws MD2Loader's geometry as it is (absolute morph targets).`,
      ...(failures.length ? [`Not drawn: ${failures.join('; ')}.`] : []),
      ...(uncaptured.length ? [`Uncaptured GPU errors: ${[...new Set(uncaptured)].join('; ')}`] : []),
      `The device's limits (as three asks for it): maxTextureDimension2D ${device.limits.maxTextureDimension2D}, maxStorageBufferBindingSize ${device.limits.maxStorageBufferBindingSize}; run took ${fmt(minutes, 1)} min.`,
    ],
  }
}

function row(n: number, results: Map<PathName, Outcome>, frames: string): (string | number)[] {
  const floor = results.get('floor') ?? {}
  const crowd = results.get('crowd') ?? {}
  const three = results.get('three') ?? {}
  const ms = (outcome: Outcome) => (outcome.ms !== undefined ? fmt(outcome.ms, 2) : short(outcome.failed))
  const times = (outcome: Outcome) => (outcome.ms !== undefined && floor.ms !== undefined ? ratio(outcome.ms / floor.ms, 2) : '–')
  const pixels = (outcome: Outcome) => (outcome.pixels !== undefined ? outcome.pixels.toLocaleString('en-US') : '–')
  return [
    n.toLocaleString('en-US'),
    ms(floor),
    ms(crowd),
    times(crowd),
    ms(three),
    times(three),
    crowd.js !== undefined ? fmt(crowd.js, 3) : '–',
    three.js !== undefined ? fmt(three.js, 1) : '–',
    crowd.inView !== undefined ? crowd.inView.toLocaleString('en-US') : '–',
    `${pixels(floor)} / ${pixels(crowd)} / ${pixels(three)}`,
    frames || '–',
  ]
}

/** A table cell for a path not timed: "fails" or "over time", the reason in the footer. */
function short(failed: string | undefined): string {
  if (!failed) return '–'
  return failed.startsWith('over time') ? `over time (~${/~(\d+) s/.exec(failed)?.[1] ?? '?'} s)` : 'fails'
}
