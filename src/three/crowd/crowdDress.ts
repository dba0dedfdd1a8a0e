import { MD2Error } from '../../core/MD2Error.js'
import type { MD2ModelData } from '../../core/format/types.js'
import { warnOnce } from '../../core/warnOnce.js'
import type { CrowdLooks } from './CrowdLooks.js'
import type { CrowdQueries } from './CrowdQueries.js'
import { loadCrowdQueries } from './loadCrowdQueries.js'
import type { MD2CrowdOptions } from './gpu/MD2CrowdOptions.js'

/**
 * What `MD2Crowd` gives its base: its looks (shells, shadows, Quake II light, made for each crowd) and the queries'
 * code.
 */
export interface CrowdDress {
  looks(crowd: ConstructorParameters<typeof CrowdLooks>[0], options: MD2CrowdOptions): CrowdLooks
  /** Its queries, there from the start (a crowd made without them loads them at the first query). */
  queries: typeof CrowdQueries
}

/** What brings the looks' code, for the error of a crowd made without it. */
const LOOKS_IMPORT =
  "`MD2Crowd` from 'react-three-md2/three' has them; an <MD2Instances> has them once the app imports a look (`MD2Shell`, `MD2BlobShadow` or `MD2Quake2Lighting` from 'react-three-md2')"
/** What brings the queries' code sooner, for the warning or error of a query asked before it is loaded. */
const QUERIES_LOADED =
  "an <MD2Instances> loads it before it draws once it or an <MD2Instance> has a pointer handler; `MD2Crowd` from 'react-three-md2/three' has it"

/** Refuses the options asking for looks of a crowd made without them (`MD2CrowdBase`), naming the import that brings them. */
export function refuseLooksOptions(model: MD2ModelData, options: MD2CrowdOptions): void {
  const asked =
    options.lighting === 'quake2' ? 'lighting: "quake2"' : options.shell !== undefined ? 'shell' : options.shadow ? 'shadow' : ''
  if (asked) throw new MD2Error('UNSUPPORTED', `${model.name ?? 'MD2Crowd'}: ${asked} needs the crowd's looks; ${LOOKS_IMPORT}`)
}

/** A crowd's looks, or the error naming what brings them (a crowd made without them: `MD2CrowdBase`). */
export function dressedLooks(looks: CrowdLooks | undefined, model: MD2ModelData, member: string): CrowdLooks {
  if (!looks)
    throw new MD2Error(
      'UNSUPPORTED',
      `MD2Crowd.${member} (${model.name ?? 'a crowd'}): this crowd was made without its looks; ${LOOKS_IMPORT}`,
    )
  return looks
}

/**
 * A query asked of a crowd whose query code is not loaded yet: starts loading it, and warns once (`raycast`: no
 * hits this time) or throws (`mustAnswer`) an `MD2Error` saying so.
 */
export function queriesNotLoaded(model: MD2ModelData, member: string, mustAnswer: boolean): undefined {
  void loadCrowdQueries()
  const message = `MD2Crowd.${member} (${model.name ?? 'a crowd'}): the crowd's query code (raycasts, pose bounds) loads on demand, and is loading now; ${QUERIES_LOADED}`
  if (mustAnswer) throw new MD2Error('UNSUPPORTED', message)
  warnOnce(`crowd-queries:${member}`, `${message}. No hits until it is in`)
  return undefined
}
