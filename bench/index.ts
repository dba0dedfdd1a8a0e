/**
 * npm run bench [-- [folder ...] [--only=parse,archive,convert,cpu,control,attach,bounds,crowd,events,webgpu-crowd,browser,renderers,three-compat,cull] [--renderers=webgl,webgpu,webgpu-webgl2] [--compute] [--quick] [--write | --no-write]]
 * npm run bench -- --only=cpu,control,bounds --against=<revision> [--rounds=N] [--quick]
 *
 * 1. Parse: parseMD2 vs three.js MD2Loader.parse on every model in assets/ (and the folders given).
 *    Convert: a rigged character .glb baked to MD2, 30,000 vertices simplified beside one that fits.
 * 2. Animate, CPU: N <MD2Model> in @react-three/test-renderer vs the blend floor and AnimationMixer;
 *    animation control: controllers mid-crossfade vs plain instances.
 * 3. Animate, browser: N Ogros in Chromium (software WebGL) vs MD2Loader + AnimationMixer; memory.
 * 4. Load, browser: the soldier from the first suspend to the first drawn frame.
 *    The GPU crowd per renderer (WebGLRenderer, WebGPURenderer on WebGPU and on WebGL2) is part of
 *    `browser`; `--only=renderers` runs that table alone. `--compute` adds the crowd with
 *    `decode: "compute"` on WebGPU to it (the keyframe blend in a compute pass).
 *
 * three-compat (not in a full run): N Ogros as three.js's MD2Character and as the library's, in Chromium.
 * cull (not in a full run): on WebGPU, N running Ogros with a tenth in view, culled by the vertex stage or by
 *   the compute pass into an indirect draw (`--counts=10000,100000`).
 *
 * webgpu-crowd: the GPU crowd on WebGPU in Node (bench/webgpu-crowd.ts: three's WebGPURenderer on Dawn, the
 * machine's GPU or else SwiftShader's Vulkan), 1,000 to 1,000,000 Ogros beside the floor and three's
 * instanced morph. [--counts=1000,10000,100000,1000000] [--paths=floor,crowd,three] [--frames=N]
 * [--max-frame-s=30]: a count whose frame is predicted to take longer is reported as over time.
 *
 * --against=<revision>: the CPU rows of `cpu`, `control` and `bounds` for this checkout and for a git
 * revision side by side in one process, alternating (bench/against.tsx), instead of those sections' tables.
 *
 * A full run writes bench/RESULTS.md (tables, the command, the machine). Run with node --expose-gc
 * (the npm script does). BENCH_CLOCK=wall times the Node benchmarks by wall clock instead of CPU time.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { runAgainstBench } from './against'
import { runAnimateCpuBench } from './animate-cpu'
import { runArchiveBench } from './archive'
import { runConvertBench } from './convert'
import { runCrowdCpuBench, runCrowdScaleBench } from './crowd-cpu'
import { runInstanceEventsBench } from './instance-events'
import { runAttachmentsBench } from './attachments'
import { runPoseBoundsBench } from './pose-bounds'
import { runAnimationControlBench, runQuake2LightingBench } from './animation-control'
import {
  CHROMIUM,
  type RendererOptions,
  consoleMessages,
  runBrowserBench,
  runCharacterBench,
  runCullBench,
  runRendererBench,
} from './browser'
import { ASSETS, ROOT, listModels } from './lib/models'
import { CLOCK, type Table, markdownTable, printTable } from './lib/stats'
import { runParseBench } from './parse'
import { isRendererKind } from './browser/renderer-kinds'

const args = process.argv.slice(2)
const flags = new Map(
  args
    .filter((arg) => arg.startsWith('--'))
    .map((arg) => {
      const [name, value] = arg.slice(2).split('=')
      return [name!, value ?? 'true'] as const
    }),
)
const folders = args.filter((arg) => !arg.startsWith('--'))
const sections = new Set(
  (flags.get('only') ?? 'parse,archive,convert,cpu,control,attach,bounds,crowd,events,webgpu-crowd,browser').split(','),
)
const quick = flags.has('quick')
const full = !flags.has('only') && !quick
const write = flags.has('write') || (full && !flags.has('no-write'))

function machine(): string[] {
  const cpu = cpus()
  let chromium = 'unknown'
  try {
    chromium = execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    // Reported as unknown.
  }
  return [
    `${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GB, ${process.platform} ${process.arch}`,
    `Node ${process.version}, ${chromium}, three ${threeVersion()}`,
    `load average at start ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' / ')}`,
  ]
}

/** The WebGPU-in-Node section in this process (it loads Dawn's native module only when asked). */
async function webgpuCrowdHere(counts: number[]): Promise<Table> {
  const { runWebGPUCrowdBench, isPathName } = await import('./webgpu-crowd')
  const table = await runWebGPUCrowdBench({
    counts,
    frames: Number(flags.get('frames') ?? (quick ? 3 : 10)),
    maxFrameS: Number(flags.get('max-frame-s') ?? 30),
    countBudgetS: quick ? 20 : 60,
    paths: flags.get('paths')?.split(',').filter(isPathName),
  }).catch((error: unknown): Table => {
    // No WebGPU adapter here (no GPU, no SwiftShader): the rest of the run goes on, and says so.
    const reason = error instanceof Error ? error.message : String(error)
    return { title: 'WebGPU in Node (Dawn): not run', head: ['reason'], rows: [[reason]] }
  })
  const out = flags.get('table-json')
  if (out) writeFileSync(out, JSON.stringify(table))
  return table
}

/**
 * The same section in a process of its own, beside other sections: Dawn's native module has ended a full run's
 * process minutes after its section, silently, losing every table; apart, that ends its process only.
 */
function webgpuCrowdApart(): Table {
  const out = join(tmpdir(), `md2-webgpu-crowd-${process.pid}.json`)
  const passed = args.filter((arg) => /^--(counts|frames|max-frame-s|paths|quick)\b/.test(arg))
  const child = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', join(ROOT, 'bench/index.ts'), '--only=webgpu-crowd', `--table-json=${out}`, ...passed],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  )
  try {
    return JSON.parse(readFileSync(out, 'utf8')) as Table
  } catch {
    const how = child.signal ? `signal ${child.signal}` : `exit code ${String(child.status)}`
    return { title: 'WebGPU in Node (Dawn): not run', head: ['reason'], rows: [[`its process ended (${how}) before its table`]] }
  } finally {
    rmSync(out, { force: true })
  }
}

function threeVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(ROOT, 'node_modules/three/package.json'), 'utf8')) as { version: string }).version
  } catch {
    return 'unknown'
  }
}

async function main(): Promise<void> {
  if (!(globalThis as { gc?: unknown }).gc) throw new Error('run with node --expose-gc (npm run bench does)')
  const started = new Date()
  const about = machine()
  console.log(`react-three-md2 benchmarks · ${about.join(' · ')}`)
  console.log(`Node benchmarks time ${CLOCK === 'cpu' ? 'CPU time of this process (BENCH_CLOCK=wall for wall time)' : 'wall time'}.`)
  const tables: Table[] = []
  /** Prints a table and keeps it for the results file. */
  const report = (table: Table) => {
    printTable(table)
    tables.push(table)
  }

  if (sections.has('parse')) {
    const files = listModels([ASSETS, ...folders])
    console.log(`\n[1/4] parse: ${files.length} files`)
    const table = runParseBench(files, quick ? { rounds: 3, sampleMs: 20, memoryRounds: 1 } : { rounds: 7, sampleMs: 40, memoryRounds: 2 })
    report(table)
  }
  if (sections.has('archive')) {
    console.log('\n[archive] list and open every model')
    const table = await runArchiveBench({ rounds: quick ? 2 : 5 })
    report(table)
  }
  if (sections.has('convert')) {
    console.log('\n[convert] a rigged character .glb to MD2')
    const table = await runConvertBench({ rounds: quick ? 2 : 5 })
    report(table)
  }
  const against = flags.get('against')
  if (against !== undefined) {
    console.log(`\n[against] the CPU rows: this checkout vs ${against}, alternating`)
    const rounds = Number(flags.get('rounds') ?? (quick ? 2 : 6))
    const table = await runAgainstBench(against, { rounds, frames: quick ? 30 : 60, sections })
    report(table)
  }
  if (sections.has('cpu') && against === undefined) {
    console.log('\n[2/4] animate, CPU')
    const table = await runAnimateCpuBench(
      quick ? { counts: [1, 100, 300, 1000], rounds: 2, frames: 20 } : { counts: [1, 100, 300, 1000], rounds: 5, frames: 40 },
    )
    report(table)
  }
  const comparisons = [
    ['control', 'animation control, CPU: 300 crossfading controllers vs 300 plain instances', runAnimationControlBench, 300],
    ['control', 'Quake II lighting, CPU: 300 Ogros lit by the table vs by three', runQuake2LightingBench, 300],
    ['attach', 'attachments, CPU: 100 soldiers with head and weapon vs 100 bodies', runAttachmentsBench, 100],
    ['bounds', 'pose bounds, CPU: 300 Ogros with <MD2PoseBounds> vs the all-frames box', runPoseBoundsBench, 300],
  ] as const
  for (const [section, title, run, count] of comparisons) {
    if (!sections.has(section) || (against !== undefined && section !== 'attach')) continue
    console.log(`\n[${section}] ${title}`)
    const table = await run(quick ? { count, rounds: 2, frames: 30 } : { count, rounds: 6, frames: 60 })
    report(table)
  }
  if (sections.has('crowd')) {
    console.log('\n[crowd] MD2Crowd.update for 10,000 instances')
    const table = runCrowdCpuBench(quick ? { rounds: 3, frames: 30 } : { rounds: 7, frames: 60 })
    report(table)
    console.log('\n[crowd] MD2Crowd.update from 1,000 to 1,000,000 instances')
    const scale = runCrowdScaleBench({
      sizes: quick ? [1000, 100_000, 1_000_000] : [1000, 10_000, 100_000, 1_000_000],
      frames: quick ? 20 : 60,
    })
    report(scale)
  }
  if (sections.has('events')) {
    console.log("\n[events] a pointer moving over 1,000 instances: per-instance handlers vs the crowd's")
    const table = runInstanceEventsBench(quick ? { rounds: 3, moves: 40 } : { rounds: 7, moves: 80 })
    report(table)
  }
  // The crowd per renderer: 1,000 / 5,000 / 10,000 on the GPU path against each renderer's floor, the
  // CPU path at 500. Pages cost seconds a frame at 5,000 and 10,000: those get a shorter cap.
  const kinds = (flags.get('renderers') ?? 'webgl,webgpu,webgpu-webgl2').split(',').filter(isRendererKind)
  const renderers: RendererOptions = quick
    ? {
        renderers: kinds,
        counts: (flags.get('counts') ?? '1000,5000,10000').split(',').map(Number),
        cpuCount: 500,
        rounds: 1,
        frames: 15,
        maxMsPerPage: 5000,
        largeFrom: 5000,
        largeMaxMsPerPage: 3000,
        compute: flags.has('compute'),
      }
    : {
        renderers: kinds,
        counts: [1000, 5000, 10000],
        cpuCount: 500,
        rounds: 2,
        frames: 30,
        maxMsPerPage: 8000,
        largeFrom: 5000,
        largeMaxMsPerPage: 4000,
        compute: flags.has('compute'),
      }
  if (sections.has('renderers') && !sections.has('browser')) {
    console.log('\n[renderers] browser: the GPU crowd per renderer')
    const started = Date.now()
    const table = await runRendererBench(renderers)
    report(table)
    console.log(`(renderers: ${((Date.now() - started) / 60000).toFixed(1)} min)`)
  }
  if (sections.has('cull')) {
    console.log('\n[cull] WebGPU: culling in the vertex stage or by a compute pass')
    const started = Date.now()
    const counts = (flags.get('counts') ?? '100000').split(',').map(Number)
    const table = await runCullBench(
      quick ? { counts, rounds: 2, frames: 10, maxMsPerPage: 20_000 } : { counts, rounds: 4, frames: 20, maxMsPerPage: 40_000 },
    )
    report(table)
    console.log(`(cull: ${((Date.now() - started) / 60000).toFixed(1)} min)`)
  }
  if (sections.has('three-compat')) {
    console.log("\n[three-compat] browser: N MD2Characters, the library's vs three.js's")
    const table = await runCharacterBench(
      quick
        ? { counts: [50, 200], rounds: 1, frames: 15, maxMsPerPage: 5000 }
        : { counts: [50, 200], rounds: 2, frames: 30, maxMsPerPage: 8000 },
    )
    report(table)
  }
  if (sections.has('webgpu-crowd')) {
    // Beside other sections, in a process of its own, which prints its heading and table.
    const apart = sections.size > 1
    const counts = (flags.get('counts') ?? '1000,10000,100000,1000000').split(',').map(Number)
    if (!apart)
      console.log(
        `\n[webgpu-crowd] WebGPU in Node (Dawn): ${counts.map((n) => n.toLocaleString('en-US')).join(', ')} Ogros, the floor, the GPU crowd, three's morph`,
      )
    const table = apart ? webgpuCrowdApart() : await webgpuCrowdHere(counts)
    if (!apart) printTable(table)
    tables.push(table)
  }
  if (sections.has('browser')) {
    console.log('\n[3/4, 4/4] browser: building the page, then N = 50, 200, 500 for each library, the GPU crowd, per renderer, then load')
    const browserStarted = Date.now()
    const result = await runBrowserBench(
      quick
        ? {
            counts: [50, 200, 500],
            libs: ['md2', 'three'],
            rounds: 1,
            frames: 15,
            maxMsPerPage: 5000,
            loadRuns: 1,
            crowdCounts: [500, 1000, 5000, 10000],
            renderers,
          }
        : {
            counts: [50, 200, 500],
            libs: ['md2', 'three', 'md2-paused', 'md2-shared'],
            rounds: 2,
            frames: 30,
            maxMsPerPage: 8000,
            loadRuns: 3,
            crowdCounts: [500, 1000, 5000, 10000],
            renderers,
          },
    )
    for (const table of [
      result.animate,
      result.memory,
      ...(result.crowd ? [result.crowd] : []),
      ...(result.renderers ? [result.renderers] : []),
      result.load,
    ]) {
      report(table)
    }
    console.log(`(browser section: ${((Date.now() - browserStarted) / 60000).toFixed(1)} min)`)
  }

  if (consoleMessages.size) {
    console.log('\nbrowser console errors and warnings (count, text):')
    for (const [text, count] of consoleMessages) console.log(`  ${count} × ${text.split('\n')[0]}`)
  }
  const minutes = (Date.now() - started.getTime()) / 60000
  console.log(
    `\ndone in ${minutes.toFixed(1)} min; load average now ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' / ')}`,
  )
  if (!write) {
    console.log('(bench/RESULTS.md not written: partial run; pass --write to write it anyway)')
    return
  }
  const command = `npm run bench${args.length ? ` -- ${args.join(' ')}` : ''}`
  const markdown = [
    '# Benchmark results',
    '',
    `Produced by \`${command}\` on ${started.toISOString().slice(0, 10)} in ${minutes.toFixed(1)} min.`,
    '',
    ...about.map((line) => `- ${line}`),
    `- load average at the end ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' / ')} (a shared machine: other work was running)`,
    `- Node benchmarks are timed by ${CLOCK === 'cpu' ? 'CPU time of the benchmark process' : 'wall clock'}; browser ones by the page's performance.now().`,
    '',
    ...tables.flatMap((table) => [markdownTable(table), '']),
  ].join('\n')
  writeFileSync(join(ROOT, 'bench/RESULTS.md'), markdown)
  console.log('wrote bench/RESULTS.md')
}

await main()
// The test renderer and vite leave handles open; the work is done.
process.exit(0)
