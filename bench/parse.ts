/**
 * Benchmark 1, parse: MB/s of parseMD2 against three.js's MD2Loader.parse on every model, and the
 * memory each keeps per parsed file as a multiple of the file's size.
 */
import { MD2Loader as ThreeMD2Loader } from 'three/addons/loaders/MD2Loader.js'
import { parseMD2 } from '../src/core/format/parseMD2'
import { type ModelFile, readArrayBuffer } from './lib/models'
import { type Table, fmt, gc, median, ratio, retainedBytes, sum, timePerCall } from './lib/stats'

export interface ParseOptions {
  rounds: number
  /** Minimum ms of repeated parsing per timing sample. */
  sampleMs: number
  /** Memory samples per library and file (each parses many copies). */
  memoryRounds: number
}

type Parser = (buffer: ArrayBuffer) => unknown

const threeLoader = new ThreeMD2Loader()
const parsers: Record<'md2' | 'three', Parser> = {
  md2: (buffer) => parseMD2(buffer),
  three: (buffer) => threeLoader.parse(buffer),
}

/** three's parser logs and returns undefined for files it rejects; keep its noise out of the tables. */
function quiet<T>(fn: () => T): T {
  const error = console.error
  const warn = console.warn
  console.error = () => {}
  console.warn = () => {}
  try {
    return fn()
  } finally {
    console.error = error
    console.warn = warn
  }
}

/**
 * Bytes retained per parse: `copies` fresh copies of the file are parsed and only the results kept
 * (the zero-copy parser keeps its input alive through its views; three's drops it), measured as
 * heap + ArrayBuffer backing stores after full GCs, divided by `copies`.
 */
function retainedPerParse(parse: Parser, buffer: ArrayBuffer, copies: number): number {
  const results: unknown[] = new Array(copies)
  const before = retainedBytes()
  for (let i = 0; i < copies; i++) results[i] = parse(buffer.slice(0))
  const after = retainedBytes()
  if (results.length !== copies) throw new Error('unreachable')
  return (after - before) / copies
}

interface FileResult {
  file: ModelFile
  size: number
  frames: number
  vertices: number
  ms: Record<'md2' | 'three', number>
  retained: Record<'md2' | 'three', number>
  threeRejects: boolean
}

export function runParseBench(files: readonly ModelFile[], options: ParseOptions): Table {
  const results: FileResult[] = []
  for (const file of files) {
    const buffer = readArrayBuffer(file.path)
    const size = buffer.byteLength
    let model
    try {
      model = parseMD2(buffer)
    } catch (error) {
      console.log(`  ${file.label}: skipped, parseMD2 rejects it (${(error as Error).message})`)
      continue
    }
    const threeRejects = quiet(() => parsers.three(buffer)) === undefined
    const samples: Record<'md2' | 'three', number[]> = { md2: [], three: [] }
    const retained: Record<'md2' | 'three', number[]> = { md2: [], three: [] }
    // three keeps ~30× the file: bound its copies to ~150 MB; ours to ~24 MB of input.
    const copies = {
      md2: Math.min(4000, Math.max(4, Math.ceil(24e6 / size))),
      three: Math.min(2000, Math.max(2, Math.floor(150e6 / (32 * size)))),
    }
    quiet(() => {
      // Timing first, each sample on a freshly collected heap, alternating which library goes first.
      for (let round = 0; round < options.rounds; round++) {
        for (const lib of round % 2 === 0 ? (['md2', 'three'] as const) : (['three', 'md2'] as const)) {
          if (lib === 'three' && threeRejects) continue
          const parse = parsers[lib]
          gc()
          samples[lib].push(timePerCall(() => parse(buffer), options.sampleMs, 3))
        }
      }
      for (let round = 0; round < options.memoryRounds; round++) {
        for (const lib of ['md2', 'three'] as const) {
          if (lib === 'three' && threeRejects) continue
          retained[lib].push(retainedPerParse(parsers[lib], buffer, copies[lib]))
        }
      }
    })
    results.push({
      file,
      size,
      frames: model.header.numFrames,
      vertices: model.header.numVertices,
      ms: { md2: median(samples.md2), three: threeRejects ? Number.NaN : median(samples.three) },
      retained: { md2: median(retained.md2), three: threeRejects ? Number.NaN : median(retained.three) },
      threeRejects,
    })
    process.stdout.write('.')
  }
  process.stdout.write('\n')

  const mbps = (size: number, ms: number) => size / 1e6 / (ms / 1000)
  const rows = results.map((r) => [
    r.file.label + (r.threeRejects ? ' †' : ''),
    fmt(r.size / 1024, 1),
    String(r.frames),
    fmt(mbps(r.size, r.ms.md2), 0),
    fmt(mbps(r.size, r.ms.three), 1),
    ratio(r.ms.three / r.ms.md2, 0),
    ratio(r.retained.md2 / r.size, 2),
    ratio(r.retained.three / r.size, 1),
  ])
  const both = results.filter((r) => !r.threeRejects)
  const total = (pick: (r: FileResult) => number, list = both) => sum(list.map(pick))
  const allMd2 = mbps(
    total((r) => r.size, results),
    total((r) => r.ms.md2, results),
  )
  const allThree = mbps(
    total((r) => r.size),
    total((r) => r.ms.three),
  )
  const sameFilesMd2 = mbps(
    total((r) => r.size),
    total((r) => r.ms.md2),
  )
  const memMd2 = total((r) => r.retained.md2, results) / total((r) => r.size, results)
  const memThree = total((r) => r.retained.three) / total((r) => r.size)
  const worstMd2 = Math.max(...results.map((r) => r.retained.md2 / r.size))
  const totalSize = total((r) => r.size, results)
  rows.push([
    `all ${results.length} files (each parsed once)`,
    fmt(totalSize / 1024, 0),
    String(total((r) => r.frames, results)),
    fmt(allMd2, 0),
    fmt(allThree, 1),
    ratio(sameFilesMd2 / allThree, 0),
    ratio(memMd2, 2),
    ratio(memThree, 1),
  ])
  const slowest = both.reduce((a, b) => (b.ms.three / b.ms.md2 < a.ms.three / a.ms.md2 ? b : a))
  const footer = [
    `Target: parse ≥ 20× three.js → ${sameFilesMd2 / allThree >= 20 ? 'met' : 'MISSED'} (${ratio(sameFilesMd2 / allThree, 0)} over all files, ` +
      `lowest on one file ${ratio(slowest.ms.three / slowest.ms.md2, 0)}, ${slowest.file.label}).`,
    `Target: retained ≤ 1.5× the file → ${memMd2 <= 1.5 ? 'met' : 'MISSED'} over all files (${ratio(memMd2, 2)}); ` +
      `largest single file ${ratio(worstMd2, 2)} (${results.find((r) => r.retained.md2 / r.size === worstMd2)?.file.label}).`,
  ]
  const perFrame = median(results.filter((r) => r.frames > 1).map((r) => (r.retained.md2 - r.size) / r.frames))
  footer.push(
    `parseMD2 keeps the file plus about ${fmt(perFrame, 0)} bytes of JavaScript per frame (a name, 6 floats of scale and translate, its share of the animations): ` +
      'nothing next to a character model, a fraction of a weapon or item model whose frames hold a few vertices.',
  )
  if (results.some((r) => r.threeRejects))
    footer.push('† three.js MD2Loader.parse rejects this file (logs and returns undefined); left out of its totals.')
  return {
    title: 'Parse: parseMD2 vs three.js MD2Loader.parse',
    note:
      `Medians of ${options.rounds} alternating samples (each ≥ ${options.sampleMs} ms of repeated parses of the same ArrayBuffer, after a full GC). ` +
      'Retained = heap + ArrayBuffers kept per parsed copy (node --expose-gc, many copies, results held, input dropped), ÷ file size; ' +
      "parseMD2's figure includes the file itself, which its views keep alive.",
    head: ['file', 'KB', 'frames', 'md2 MB/s', 'three MB/s', 'speed-up', 'md2 kept', 'three kept'],
    rows,
    footer,
  }
}
