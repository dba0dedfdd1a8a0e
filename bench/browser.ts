/**
 * Benchmarks 3 and 4, in Chromium (software WebGL here: ANGLE on SwiftShader): N animated Ogros,
 * this library against three.js's MD2Loader + AnimationMixer morph meshes; the GPU crowd against its
 * drawing floor, on WebGLRenderer and on WebGPURenderer (WebGPU on SwiftShader's Vulkan, and its WebGL2
 * backend); and the soldier's load time, from the first suspend to the first drawn frame. Builds
 * bench/browser/ with vite, serves it with vite preview on 127.0.0.1 (a secure context, for WebGPU)
 * and drives it with playwright, with the Chromium flags the browser tests use.
 */
import { type Browser, chromium } from 'playwright'
import { CHROMIUM_ARGS } from '../test/browser/chromium.mjs'
import { runCrowd, runRenderers } from './browser-crowds'
import {
  type AnimateSample,
  type BrowserOptions,
  CHROMIUM,
  MB,
  type PageBench,
  animatePage,
  countAt,
  hostBytes,
  openPage,
  sampleRounds,
  serve,
  turn,
} from './lib/browser-pages'
import { type Table, fmt, median, ratio } from './lib/stats'

export { runRendererBench } from './browser-crowds'
export { CHROMIUM, type BrowserOptions, type RendererOptions, consoleMessages } from './lib/browser-pages'

/** The page's \`window.bench\` (bench/browser/main.tsx), as the functions given to \`page.evaluate\` see it. */
declare const bench: PageBench

/**
 * Coming from three.js: N Ogros as N `MD2Character`s, the library's against three.js's own (three's code as its
 * webgl_loader_md2 page writes it, each character loaded by `loadParts`, armed and running), pages alternating.
 */
export async function runCharacterBench(options: {
  counts: number[]
  rounds: number
  frames: number
  maxMsPerPage: number
}): Promise<Table> {
  const served = await serve()
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] })
  const libs = ['md2-character', 'three-character']
  try {
    const cell = await sampleRounds(
      options.counts,
      options.rounds,
      (_, round) => turn(libs, round),
      (lib, n) => animatePage(browser, served.url, lib, n, options),
    )
    const gpuMB = (gpu: Record<string, number>) => Object.values(gpu).reduce((a, b) => a + b, 0) / MB
    const rows = options.counts.flatMap((n) => {
      const md2 = cell('md2-character', n)
      const three = cell('three-character', n)
      return [
        [
          n,
          "library's MD2Character",
          fmt(md2.frameMs, 1),
          fmt(md2.cpuMs, 2),
          fmt(gpuMB(md2.gpu), 1),
          fmt(md2.host / MB, 1),
          ratio(three.frameMs / md2.frameMs, 1),
          md2.frames,
        ],
        [
          n,
          "three.js's MD2Character",
          fmt(three.frameMs, 1),
          fmt(three.cpuMs, 2),
          fmt(gpuMB(three.gpu), 1),
          fmt(three.host / MB, 1),
          '1×',
          three.frames,
        ],
      ]
    })
    return {
      title: "Coming from three.js: N armed, running Ogros as MD2Characters, the library's vs three.js's",
      note:
        `${options.rounds} round(s), pages alternating, ${options.frames} frames a page (≤ ${fmt(options.maxMsPerPage / 1000, 0)} s). ` +
        'frame ms = JS + waiting for the GPU (a 1-pixel readPixels); JS ms = update() of every character and the render call. ' +
        'GPU MB = geometry and morph data handed to WebGL; heap MB = JS heap + array buffers after a full GC.',
      head: ['N', 'class', 'frame ms', 'JS ms', 'GPU MB', 'heap MB', 'speed-up', 'frames timed'],
      rows,
    }
  } finally {
    await browser.close()
    await served.close()
  }
}

/**
 * Culling on WebGPU: N running Ogros of which a tenth is in view (the rest behind the camera), culled by the
 * compute pass into an indirect draw (`md2-cull`) or by the vertex stage (`md2-vertex-cull`: every instance's
 * vertices run, the culled ones' triangles collapse). Pages alternate; the ratio is of medians of one run.
 */
export async function runCullBench(options: { counts: number[]; rounds: number; frames: number; maxMsPerPage: number }): Promise<Table> {
  const served = await serve()
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] })
  const libs = ['md2-vertex-cull', 'md2-cull']
  try {
    const cell = await sampleRounds(
      options.counts,
      options.rounds,
      (_, round) => turn(libs, round),
      async (lib, n) => {
        const sample = await animatePage(browser, served.url, lib, n, { ...options, host: false }, 'webgpu')
        if (sample.errors) throw new Error(`${lib} at ${n}: ${sample.errors[0]}`)
        return sample
      },
    )
    const rows = options.counts.flatMap((n) => {
      const vertex = cell('md2-vertex-cull', n)
      const compute = cell('md2-cull', n)
      return [
        [n, 'vertex stage', fmt(vertex.frameMs, 1), fmt(vertex.cpuMs, 2), '1×', vertex.frames],
        [
          n,
          'compute pass, indirect draw',
          fmt(compute.frameMs, 1),
          fmt(compute.cpuMs, 2),
          ratio(vertex.frameMs / compute.frameMs, 2),
          compute.frames,
        ],
      ]
    })
    return {
      title: 'Culling on WebGPU: N running Ogros, a tenth in view, culled in the vertex stage or by a compute pass',
      note:
        `${options.rounds} round(s), pages alternating, ${options.frames} frames a page (≤ ${fmt(options.maxMsPerPage / 1000, 0)} s), ` +
        `drawn by ${cell(libs[0]!, options.counts[0]!).drawnBy ?? '?'}. frame ms = JS + waiting for the GPU (queue.onSubmittedWorkDone); ` +
        'JS ms = update() and the render call. speed-up = vertex-stage frame ms / this frame ms.',
      head: ['N', 'culled by', 'frame ms', 'JS ms', 'speed-up', 'frames timed'],
      rows,
    }
  } finally {
    await browser.close()
    await served.close()
  }
}

export async function runBrowserBench(
  options: BrowserOptions,
): Promise<{ animate: Table; memory: Table; load: Table; crowd?: Table; renderers?: Table }> {
  const served = await serve()
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] })
  try {
    const renderer = await rendererName(browser, served.url)
    // More than two pages: each round starts one further along the list.
    const pick = await sampleRounds(
      options.counts,
      options.rounds,
      (_, round) => options.libs.map((_, k) => options.libs[(k + round) % options.libs.length]!),
      (lib, n) => animatePage(browser, served.url, lib, n, options),
    )
    const has = (lib: string) => options.libs.includes(lib)
    const animateRows = options.counts.map((n) => {
      const md2 = pick('md2', n)
      const three = pick('three', n)
      const row: (string | number)[] = [`${n}`, fmt(md2.frameMs, 1), fmt(md2.cpuMs, 1)]
      if (has('md2-paused')) row.push(fmt(pick('md2-paused', n).frameMs, 1))
      if (has('md2-shared')) row.push(fmt(pick('md2-shared', n).frameMs, 1), fmt(pick('md2-shared', n).cpuMs, 1))
      row.push(fmt(three.frameMs, 1), fmt(three.cpuMs, 1), ratio(three.frameMs / md2.frameMs, 1), `${md2.frames}/${three.frames}`)
      return row
    })
    // Equal frame time: how many Ogros this library animates in the frame time three.js needs for its smallest N.
    const [lo, hi] = [options.counts[0]!, options.counts[options.counts.length - 1]!]
    const reference = pick('three', lo).frameMs
    const within = options.counts.filter((n) => pick('md2', n).frameMs <= reference)
    const measured = within.length ? Math.max(...within) : Number.NaN
    const estimate = countAt(reference, [lo, pick('md2', lo).frameMs], [hi, pick('md2', hi).frameMs])
    const atSameTime = Math.max(Number.isFinite(measured) ? measured : 0, Number.isFinite(estimate) ? estimate : 0) / lo
    const footer = [
      `Same frame time: three.js needs ${fmt(reference, 1)} ms for ${lo} Ogros; ` +
        (Number.isFinite(measured) ? `this library draws ${measured} in ${fmt(pick('md2', measured).frameMs, 1)} ms (measured), ` : '') +
        `about ${fmt(estimate, 0)} by the straight line through its ${lo}- and ${hi}-Ogro times: ${ratio(atSameTime, 0)} as many. ` +
        `Target ≥ 2× → ${atSameTime >= 2 ? 'met' : 'MISSED'}.`,
      ...(has('md2-paused')
        ? [
            `Paused vs playing at N = ${hi}: ${fmt(pick('md2-paused', hi).frameMs, 1)} vs ${fmt(pick('md2', hi).frameMs, 1)} ms: ` +
              'CPU blending and uploads are not what a frame costs here (drawing is), so a GPU-side blend could gain at most that difference.',
          ]
        : []),
      `Renderer: ${renderer}; canvas 800×600, dpr 1, no antialiasing; Ogros on a grid the camera backs away from as N grows.`,
    ]
    const animate: Table = {
      title: 'Animate, browser: N animated Ogros, <MD2Model> vs three.js MD2Loader + AnimationMixer (morph targets)',
      note:
        `Chromium, software WebGL. Median ms per frame over ${options.rounds} page loads per cell (≤ ${options.frames} frames each, ` +
        'libraries alternating). frame = JS (useFrame, mixers, render calls) + GPU (waited for with a 1-pixel readPixels); ' +
        'JS = the JavaScript part alone. three.js gets its best case: one geometry shared by all meshes and one material. ' +
        (has('md2-paused')
          ? 'paused = the same N with playing={false}: no blending, no uploads, the floor a GPU-side blend could reach. '
          : '') +
        (has('md2-shared') ? 'one material = every <MD2Model> given the same material prop (by default each makes its own).' : ''),
      head: [
        'N',
        'md2 frame ms',
        'md2 JS ms',
        ...(has('md2-paused') ? ['md2 paused frame ms'] : []),
        ...(has('md2-shared') ? ['md2 one material: frame ms', 'JS ms'] : []),
        'three frame ms',
        'three JS ms',
        'speed-up',
        'frames timed md2/three',
      ],
      rows: animateRows,
      footer,
    }

    const memoryRows = options.counts.map((n) => {
      const md2 = pick('md2', n)
      const three = pick('three', n)
      const md2Gpu = (md2.gpu.shared ?? 0) + (md2.gpu.perInstance ?? 0)
      const threeGpu = (three.gpu.shared ?? 0) + (three.gpu.perInstance ?? 0) + (three.gpu.morphTexture ?? 0)
      // MD2Character loads (and uploads) its own geometry per character.
      const characterGpu = threeGpu * n
      return [`${n}`, fmt(md2Gpu / MB, 2), fmt(threeGpu / MB, 1), fmt(characterGpu / MB, 0), fmt(md2.host / MB, 1), fmt(three.host / MB, 1)]
    })
    const memory: Table = {
      title: 'Memory, browser: GPU buffers and page memory with N Ogros',
      note:
        'GPU = bytes of every distinct vertex attribute and index buffer uploaded, plus three.js morph textures computed as ' +
        'WebGLMorphtargets builds them (RGBA float, position + normal per vertex per frame); the 256×256 skin (same for both) is left out. ' +
        'Page = V8 heap + ArrayBuffer backing stores after a full GC (DevTools protocol), whole page (React, three.js included).',
      head: ['N', 'md2 GPU MB', 'three GPU MB (shared geometry)', 'MD2Character GPU MB (geometry each)', 'md2 page MB', 'three page MB'],
      rows: memoryRows,
      footer: [
        'MD2Character parses and uploads one geometry per character; the three column measured here shares one geometry ' +
          '(its best case), the MD2Character column is that figure × N.',
      ],
    }

    const crowd = options.crowdCounts?.length ? await runCrowd(browser, served.url, options, pick) : undefined
    // The WebGL rows of the per-renderer table are the crowd table's and the animate table's pages
    // when they were measured the same way (same rounds, frames and cap).
    const same =
      options.renderers &&
      options.renderers.rounds === options.rounds &&
      options.renderers.frames === options.frames &&
      options.renderers.maxMsPerPage === options.maxMsPerPage
    const reuse = (lib: string, n: number): AnimateSample | undefined => {
      if (!same) return undefined
      if (lib === 'md2')
        return options.counts.includes(n) && options.libs.includes('md2') ? { ...pick('md2', n), host: Number.NaN } : undefined
      return crowd?.cell.get(`${lib}:${n}`)
    }
    const renderers = options.renderers ? await runRenderers(browser, served.url, options.renderers, reuse) : undefined
    const load = await runLoad(browser, served.url, options.loadRuns)
    process.stdout.write('\n')
    return { animate, memory, load, crowd: crowd?.table, renderers }
  } finally {
    await browser.close()
    await served.close()
  }
}

async function rendererName(browser: Browser, base: string): Promise<string> {
  const { page, close } = await openPage(browser, `${base}?mode=animate&lib=md2&n=0`)
  try {
    return await page.evaluate(() => {
      const gl = document.createElement('canvas').getContext('webgl2')!
      const info = gl.getExtension('WEBGL_debug_renderer_info')
      return info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : String(gl.getParameter(gl.RENDERER))
    })
  } finally {
    await close()
  }
}

async function loadOnce(browser: Browser, base: string, lib: string, skin: boolean): Promise<Record<string, number>> {
  const { page, close } = await openPage(browser, `${base}?mode=load&lib=${lib}&skin=${skin ? 1 : 0}`)
  try {
    await page.waitForFunction(() => typeof bench !== 'undefined' && bench.load !== undefined, undefined, { timeout: 60_000 })
    const times = await page.evaluate(() =>
      Promise.race([bench.load, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(bench.error ?? 'timeout')), 60_000))]),
    )
    return { ...times, host: await hostBytes(page) }
  } finally {
    await close()
  }
}

async function loadParts(browser: Browser, base: string): Promise<Record<string, number>> {
  const { page, close } = await openPage(browser, `${base}?mode=parts`)
  try {
    await page.waitForFunction(() => typeof bench !== 'undefined' && bench.load !== undefined, undefined, { timeout: 60_000 })
    return await page.evaluate(() => bench.load)
  } finally {
    await close()
  }
}

async function runLoad(browser: Browser, base: string, runs: number): Promise<Table> {
  const cells: Record<string, Record<string, number[]>> = {}
  const parts: Record<string, number[]> = {}
  const variants = [
    ['md2', false],
    ['three', false],
    ['md2', true],
    ['three', true],
  ] as const
  for (let run = 0; run < runs; run++) {
    for (const [lib, skin] of run % 2 === 0 ? variants : [...variants].reverse()) {
      const key = `${lib}:${skin}`
      let times: Record<string, number>
      try {
        times = await loadOnce(browser, base, lib, skin)
      } catch (error) {
        console.log(`  load ${key}: ${(error as Error).message}`)
        times = { total: Number.NaN }
      }
      const cell = (cells[key] ??= {})
      for (const [name, value] of Object.entries(times)) (cell[name] ??= []).push(value)
      process.stdout.write('.')
    }
    for (const [name, value] of Object.entries(await loadParts(browser, base))) (parts[name] ??= []).push(value)
  }
  const part = (name: string) => fmt(median(parts[name] ?? []), 0)
  const get = (lib: string, skin: boolean, name: string) => median(cells[`${lib}:${skin}`]?.[name] ?? [])
  const rows = [false, true].map((skin) => {
    const md2 = get('md2', skin, 'total')
    const three = get('three', skin, 'total')
    return [
      skin ? 'soldier + its 2048×2048 PNG skin' : 'soldier, no skin',
      fmt(md2, 0),
      fmt(get('md2', skin, 'loaded'), 0),
      fmt(three, 0),
      fmt(get('three', skin, 'loaded'), 0),
      ratio(three / md2, 1),
      fmt(get('md2', skin, 'host') / MB, 1),
      fmt(get('three', skin, 'host') / MB, 1),
    ]
  })
  return {
    title: 'Load, browser: the UFO:AI soldier (3.5 MB, 1,007 frames) from the first suspend to the first drawn frame',
    note:
      `Median of ${runs} fresh pages each. md2: <Suspense><MD2Model url … animationTable animation="walk0"/></Suspense> mounted on ` +
      "a running canvas; the clock stops when the mesh's first draw has finished on the GPU. loaded = fetched and parsed " +
      '(useMD2 resolved; for three.js, MD2Loader.loadAsync). three.js: the geometry it returns on a mesh with its morph targets.',
    head: ['model', 'md2 total ms', 'md2 loaded ms', 'three total ms', 'three loaded ms', 'speed-up', 'md2 page MB', 'three page MB'],
    rows,
    footer: [
      `Where the time goes (another page, same file, medians): fetch of the 3.5 MB file ${part('fetch')} ms ` +
        `(three's FileLoader, used by both loaders: ${part('fileLoader')} ms); parseMD2 ${part('parseMD2')} ms; ` +
        `render data (vertex layout + all-frames bounds, once per model) ${part('renderData')} ms; three.js MD2Loader.parse ${part('threeParse')} ms. ` +
        'The rest is React, shader compilation and the first upload (and decoding and uploading the skin).',
    ],
  }
}
