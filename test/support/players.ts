import type { Group, Mesh } from 'three'
import { vi } from 'vitest'
import { clearPlayerFiles } from '../../src/react/loading/playerFiles'
import { useMD2 } from '../../src/react/loading/useMD2'
import { useMD2Skin } from '../../src/react/loading/useMD2Skin'

/** After a test of `<MD2Player>`: the fake server gone, every cached player folder, model and skin forgotten. */
export function forgetPlayerLoads(): void {
  vi.restoreAllMocks()
  clearPlayerFiles()
  useMD2.clear()
  useMD2Skin.clear()
}

/** A drawn model's mesh (the first child of its group). */
export const meshOf = (group: Group) => group.children[0] as Mesh

/** A player's weapon: the first model drawn in the body's children. */
export function weaponOf(body: Group): Group | undefined {
  const space = body.children.find((child) => child.name.endsWith('children'))
  return space?.children.find((child) => child.type === 'Group') as Group | undefined
}
