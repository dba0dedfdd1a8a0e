import { QUAKE2_FPS } from './spec.js'
import type { MD2Animation, MD2ModelData } from './types.js'

/**
 * A model's animations grouped as three.js groups them (`MD2Loader`'s clips, `MorphBlendMesh`'s
 * animations): each frame name split into a name and its trailing digits, every frame of a name in one
 * animation, in the order names first appear. Aliases merge into their group (`pain101`…`pain304` are
 * one `pain`), and a frame name without digits belongs to none. For apps that build a menu from three's
 * list; the library's own grouping (`model.animations`) keeps `pain1`–`pain3` apart.
 *
 * Pass it as the animation list of an `MD2AnimationController` to play three's names.
 */
export function threeAnimationGroups(model: Pick<MD2ModelData, 'frameNames'>, fps: number = QUAKE2_FPS): MD2Animation[] {
  const groups = new Map<string, MD2Animation>()
  model.frameNames.forEach((frameName, index) => {
    const match = /^([\w-]*?)(\d+)$/.exec(frameName)
    if (match === null) return
    const name = match[1]!
    const group = groups.get(name)
    // A name that comes back later stretches its group over the frames between, as MorphBlendMesh does.
    if (group) group.end = index
    else groups.set(name, { name, start: index, end: index, fps, source: 'names' })
  })
  return [...groups.values()]
}
