import { expect } from 'vitest'
import { MD2Error } from '../../src/core/MD2Error'

/**
 * Runs `run` and expects an `MD2Error` with `code`; with `section`, that file part; with `text`, a
 * message containing (or matching) it. Returns the error.
 */
export function expectMD2Error(
  run: () => unknown,
  code: string,
  { section, text }: { section?: string; text?: string | RegExp } = {},
): MD2Error {
  let caught: unknown
  try {
    run()
  } catch (error) {
    caught = error
  }
  expect(caught, `expected an MD2Error ${code}`).toBeInstanceOf(MD2Error)
  const error = caught as MD2Error
  expect(error.code, error.message).toBe(code)
  if (section !== undefined) expect(error.section).toBe(section)
  if (typeof text === 'string') expect(error.message).toContain(text)
  else if (text) expect(error.message).toMatch(text)
  return error
}

/** The `MD2Error` `run` throws (anything else is rethrown; nothing thrown fails the test). */
export function caughtMD2Error(run: () => unknown): MD2Error {
  try {
    run()
  } catch (error) {
    if (error instanceof MD2Error) return error
    throw error
  }
  throw new Error('expected an MD2Error')
}

/** The code and message of the `MD2Error` `run` throws, as a plain object for `toEqual`. */
export function thrown(run: () => unknown): { code: string; message: string } {
  const { code, message } = caughtMD2Error(run)
  return { code, message }
}
