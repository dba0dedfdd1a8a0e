/** Small helpers shared by the benchmarks: medians, timing, tables (console and Markdown). */

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

export function sum(values: readonly number[]): number {
  let total = 0
  for (const value of values) total += value
  return total
}

/**
 * The clock the Node benchmarks read: CPU time of this process (user + system, all its threads) by
 * default, so that other work on a shared machine does not count; wall time with BENCH_CLOCK=wall.
 */
export const CLOCK: 'cpu' | 'wall' = process.env.BENCH_CLOCK === 'wall' ? 'wall' : 'cpu'

export function now(): number {
  if (CLOCK === 'wall') return performance.now()
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

/** Runs `fn` repeatedly until at least `minMs` have passed; returns ms per call. */
export function timePerCall(fn: () => void, minMs: number, minCalls = 1): number {
  let calls = 0
  const start = now()
  let elapsed = 0
  while (calls < minCalls || elapsed < minMs) {
    fn()
    calls++
    elapsed = now() - start
  }
  return elapsed / calls
}

export function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc
  if (!collect) throw new Error('run with node --expose-gc (npm run bench does)')
  collect()
  collect()
}

/** Heap plus ArrayBuffer backing stores, after two full collections. */
export function retainedBytes(): number {
  gc()
  const usage = process.memoryUsage()
  return usage.heapUsed + usage.arrayBuffers
}

export type Cell = string | number
export interface Table {
  title: string
  /** One line under the title: what is measured, how. */
  note?: string
  head: string[]
  rows: Cell[][]
  /** Lines printed after the table (targets, caveats). */
  footer?: string[]
}

export function fmt(value: number, digits = 2): string {
  if (!Number.isFinite(value)) return 'n/a'
  if (Math.abs(value) >= 1000) return value.toFixed(0)
  if (Math.abs(value) >= 100) return value.toFixed(Math.min(digits, 1))
  return value.toFixed(digits)
}

export function ratio(value: number, digits = 1): string {
  return Number.isFinite(value) ? `${fmt(value, digits)}×` : 'n/a'
}

function cellText(cell: Cell): string {
  return typeof cell === 'number' ? fmt(cell) : cell
}

export function printTable(table: Table): void {
  const rows = [table.head, ...table.rows.map((row) => row.map(cellText))]
  const widths = table.head.map((_, c) => Math.max(...rows.map((row) => (row[c] ?? '').length)))
  const line = (row: string[]) => row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ')
  console.log(`\n${table.title}`)
  if (table.note) console.log(table.note)
  console.log(line(rows[0]!))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const row of rows.slice(1)) console.log(line(row))
  for (const footer of table.footer ?? []) console.log(footer)
}

export function markdownTable(table: Table): string {
  const out = [`### ${table.title}`, '']
  if (table.note) out.push(table.note, '')
  out.push(`| ${table.head.join(' | ')} |`)
  out.push(`| ${table.head.map((_, c) => (c === 0 ? '---' : '---:')).join(' | ')} |`)
  for (const row of table.rows) out.push(`| ${row.map(cellText).join(' | ')} |`)
  if (table.footer?.length) out.push('', ...table.footer.map((line) => `${line}  `))
  return out.join('\n')
}

/** How a CPU comparison was measured, for a table's note. */
export function perFrameNote(options: { rounds: number; frames: number }): string {
  return (
    `ms of ${CLOCK === 'cpu' ? 'CPU time' : 'wall time'} per frame, median of ${options.rounds} rounds × ${options.frames} frames ` +
    '(the scenes mounted together, their frames interleaved), '
  )
}
