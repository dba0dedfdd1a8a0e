import { expect } from 'vitest'
import { nodeIO, runCli, type CliIO } from '../../src/cli/main'

/** The CLI in-process on the real file system, its output captured; never a stack trace. */
export async function runOnDisk(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const io: CliIO = { ...nodeIO, stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text) }
  const code = await runCli(argv, io)
  expect(stdout + stderr).not.toMatch(/\n\s+at /)
  return { code, stdout, stderr }
}
