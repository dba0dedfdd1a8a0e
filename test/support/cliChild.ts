/**
 * The CLI in a process of its own (`node --import tsx test/support/cliChild.ts ARGS`), for tests that measure
 * it: on exit it writes its peak resident memory in kB to the file named by MD2_CLI_RSS_FILE: Linux's VmHWM
 * (this process's own high-water mark; `resourceUsage().maxRSS` also counts the parent's memory at the fork),
 * else `process.resourceUsage().maxRSS`.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { main } from '../../src/cli/main'

process.on('exit', () => {
  const file = process.env.MD2_CLI_RSS_FILE
  if (!file) return
  let peak = process.resourceUsage().maxRSS
  try {
    const hwm = /VmHWM:\s*(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))
    if (hwm) peak = Number(hwm[1])
  } catch {
    // Not Linux: maxRSS, an upper bound.
  }
  writeFileSync(file, String(peak))
})
void main(process.argv)
