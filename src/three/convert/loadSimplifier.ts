import type { MeshoptSimplifier } from 'meshoptimizer/simplifier'
import { MD2Error } from '../../core/MD2Error.js'

export type Simplifier = typeof MeshoptSimplifier

let loaded: Simplifier | undefined
let loading: Promise<void> | undefined

/**
 * Loads meshoptimizer's simplifier (a WebAssembly module, the one gltfpack and glTF-Transform use), which
 * `bakeMD2`'s `simplify` option needs: await it once before baking with `simplify`. Imported on demand, so
 * an app that never simplifies does not ship it. Later calls return the same promise.
 */
export function loadSimplifier(): Promise<void> {
  loading ??= import('meshoptimizer/simplifier').then(
    async ({ MeshoptSimplifier: simplifier }) => {
      await simplifier.ready
      loaded = simplifier
    },
    (error: unknown) => {
      loading = undefined
      throw new MD2Error('LOAD_FAILED', 'meshoptimizer\u2019s simplifier could not be loaded', { section: 'simplify', cause: error })
    },
  )
  return loading
}

/** The simplifier once `loadSimplifier` has resolved, else undefined. */
export function loadedSimplifier(): Simplifier | undefined {
  return loaded
}
