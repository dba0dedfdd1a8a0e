import { useLayoutEffect, type RefObject } from 'react'
import type { Intersection, Object3D, Raycaster } from 'three'
import type { MD2Crowd } from '../three/crowd/MD2Crowd.js'

/** The props R3F takes for pointer handlers (its own test for them). */
const POINTER_HANDLER = /^on(Pointer|Click|DoubleClick|ContextMenu|Wheel)/

/** Whether `props` hold a pointer handler (`onClick`, `onPointerOver`, `onWheel`…). */
export function hasPointerHandlers(props: object): boolean {
  for (const key in props) if (POINTER_HANDLER.test(key) && (props as Record<string, unknown>)[key]) return true
  return false
}

/**
 * Pointer events for one instance of a crowd, as drei's `<Instance>` has them: while `props` hold a pointer
 * handler, `object` (the instance's group, a child of the crowd, where R3F put the handlers) raycasts the
 * instance in its slot `index.value` against its current pose, as the hit object, and the crowd's own raycast
 * leaves that instance to it. R3F then calls the instance's handlers with `instanceId` the slot and bubbles the
 * event to the crowd's. An instance without handlers keeps a group that is never hit. `claim` is whatever
 * changes when the instance takes another slot.
 */
export function useInstanceEvents(
  object: RefObject<Object3D | null>,
  crowd: MD2Crowd,
  index: { readonly value: number },
  props: object,
  claim: unknown,
): void {
  const handled = hasPointerHandlers(props)
  useLayoutEffect(() => {
    const node = object.current
    const i = index.value
    if (!handled || !node || i < 0) return
    node.raycast = (raycaster: Raycaster, intersects: Intersection[]) => crowd.raycastInstance(i, raycaster, intersects, node)
    crowd.setHitObject(i, node)
    return () => {
      // Back to the group's own raycast (none: a group is never hit).
      delete (node as Partial<Object3D>).raycast
      crowd.setHitObject(i, null)
    }
  }, [handled, object, crowd, index, claim])
}
