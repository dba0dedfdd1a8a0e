/**
 * The CLI in a process of its own (`node --import tsx test/support/cliChild.ts ARGS`), for tests that measure
 * it: on exit it writes its peak resident memory (`process.resourceUsage().maxRSS`, kB) to the file named by
 * MD2_CLI_RSS_FILE.
 */
import { writeFileSync } from 'node:fs'
import { main } from '../../src/cli/main'

process.on('exit', () => {
  const file = process.env.MD2_CLI_RSS_FILE
  if (file) writeFileSync(file, String(process.resourceUsage().maxRSS))
})
void main(process.argv)
