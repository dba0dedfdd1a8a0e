import type { CrowdQueries } from './CrowdQueries.js'

let loaded: typeof CrowdQueries | undefined
let loading: Promise<typeof CrowdQueries> | undefined

/**
 * The crowd's queries (`CrowdQueries`: raycasts, pose bounds, and the CPU blend they pose with), loaded once on
 * demand for the crowds made without them (`MD2CrowdBase`): a crowd never raycast nor asked its bounds does not
 * ship them. `MD2Crowd` imports them itself.
 */
export function loadCrowdQueries(): Promise<typeof CrowdQueries> {
  return (loading ??= import('./CrowdQueries.js').then((module) => (loaded = module.CrowdQueries)))
}

/** `CrowdQueries` once `loadCrowdQueries` has loaded it, else `undefined`. */
export function loadedCrowdQueries(): typeof CrowdQueries | undefined {
  return loaded
}
