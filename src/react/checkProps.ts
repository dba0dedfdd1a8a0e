import { MD2Error } from '../core/MD2Error.js'
import type { MD2ModelData } from '../core/format/types.js'

/** How a wrong value reads in a message: a string quoted, anything else by its kind. */
function describe(value: unknown): string {
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}…` : value)}`
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object of another kind' : `${typeof value} ${String(value)}`
}

/** What each prop that takes made or parsed data accepts, and what makes it. */
const PARSED_PROPS = {
  model: {
    valid: (value: unknown) => typeof value === 'object' && value !== null && 'header' in value && 'frameData' in value,
    wants: 'a parsed model, from useMD2(url) or parseMD2(bytes) (or give `url`)',
  },
  tags: {
    valid: (value: unknown) => typeof value === 'object' && value !== null && 'transforms' in value && 'names' in value,
    wants: 'parsed tags, from useMD2Tags(url) or parseMD2Tags(bytes)',
  },
  controller: {
    valid: (value: unknown) => typeof value === 'object' && value !== null && 'pose' in value,
    wants: 'a controller with a `pose`, from useMD2Animation(model), usePlayerAnimation() or a class of yours',
  },
  animationTable: {
    valid: (value: unknown) => Array.isArray(value),
    wants: 'an array of { name, start, end, fps? }, e.g. from parseAnimationTable(text)',
  },
  files: {
    valid: (value: unknown) => Array.isArray(value) && value.every((name) => typeof name === 'string'),
    wants: "an array of file names (['tris.md2', 'skin.pcx'])",
  },
} as const

export type ParsedProp = keyof typeof PARSED_PROPS

/**
 * Refuses a prop that takes made or parsed data given something else (a URL where parsed tags go, the
 * old API): an `MD2Error` `BAD_ARGUMENT` naming the component, the prop, what it got and what makes the
 * right value, instead of a `TypeError` from deep inside or nothing at all.
 */
export function checkParsedProps(component: string, props: Partial<Record<ParsedProp, unknown>>): void {
  for (const prop of Object.keys(PARSED_PROPS) as ParsedProp[]) {
    const value = props[prop]
    if (value === undefined || PARSED_PROPS[prop].valid(value)) continue
    throw new MD2Error('BAD_ARGUMENT', `<${component} ${prop}> takes ${PARSED_PROPS[prop].wants}, not ${describe(value)}`)
  }
}

/** A controller that plays only models with enough frames (`usePlayerAnimation`'s: a Quake II player's 198). */
export function checkPlayerModel(model: MD2ModelData, frames: number, user: string): void {
  if (model.header.numFrames >= frames) return
  throw new MD2Error(
    'BAD_ARGUMENT',
    `${user} plays a Quake II player model (${frames} frames); ${model.name ?? 'this model'} has ${model.header.numFrames}`,
  )
}
