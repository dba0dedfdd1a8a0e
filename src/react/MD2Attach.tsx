import { useFrame, type ThreeElements } from '@react-three/fiber'
import { forwardRef, useImperativeHandle, useLayoutEffect, useMemo, useRef } from 'react'
import { Matrix4, type Group } from 'three'
import { MD2Error } from '../core/MD2Error.js'
import { findTag } from '../core/tags/parseMD2Tags.js'
import { tagTransform } from '../core/tags/tagTransform.js'
import { warnOnce } from '../core/warnOnce.js'
import { setTagMatrix } from '../three/mesh/tagMatrix.js'
import { useMD2ModelContext, type MD2ModelContextValue } from './MD2ModelContext.js'

export interface MD2AttachProps extends Omit<ThreeElements['group'], 'ref'> {
  /** The tag to follow: `tag_head`, `tag_rweapon`, `tag_lweapon`, `tag_floor`… */
  tag: string
}

/**
 * A group that follows one of the enclosing `<MD2Model tags>`'s tags every frame (its interpolation
 * and crossfade included), in the model's coordinates: an MD2 child (UFO:AI's `head01.md2`, a weapon)
 * sits where the game draws it. `position`, `rotation` and `scale` place the children within the tag.
 * The ref is the group; its `matrixWorld` is the tag's world placement from this frame's `useFrame`
 * on (read it to spawn a projectile from `tag_rweapon`). A tag the file lacks warns once and leaves
 * the children at the model's origin, as UFO:AI draws them.
 */
export const MD2Attach = forwardRef<Group, MD2AttachProps>(function MD2Attach({ tag, children, ...groupProps }, ref) {
  const context = useMD2ModelContext()
  if (!context) throw new MD2Error('BAD_ARGUMENT', `<MD2Attach tag="${tag}"> must be inside an <MD2Model>`)
  if (!context.tags) throw new MD2Error('BAD_ARGUMENT', `<MD2Attach tag="${tag}">: its <MD2Model> has no \`tags\``)
  const index = findTag(context.tags, tag)
  if (index < 0) {
    warnOnce(
      `attach:${context.tags.name}:${tag}`,
      `<MD2Attach>: ${context.tags.name ?? 'the tags'} have no "${tag}" (they have ${context.tags.names.join(', ')}); children stay at the model's origin`,
    )
  }
  const group = useRef<Group>(null)
  useImperativeHandle(ref, () => group.current!, [])
  const scratch = useMemo(() => ({ transform: new Float32Array(12), tag: new Matrix4() }), [])

  useLayoutEffect(() => {
    if (group.current) place(group.current, context, index, scratch)
  })
  // After the controllers (priority −1), before the render: the same pose the models draw.
  useFrame(() => {
    if (group.current) place(group.current, context, index, scratch)
  })

  return (
    <group ref={group} matrixAutoUpdate={false} {...groupProps}>
      {children}
    </group>
  )
})

/** The group's matrix: the tag's placement for the model's pose, times the group's own position/rotation/scale. */
function place(group: Group, context: MD2ModelContextValue, index: number, scratch: { transform: Float32Array; tag: Matrix4 }): void {
  group.matrix.compose(group.position, group.quaternion, group.scale)
  if (index >= 0 && context.tags) {
    setTagMatrix(scratch.tag, tagTransform(context.tags, index, context.pose, scratch.transform))
    group.matrix.premultiply(scratch.tag)
  }
  group.matrixWorldNeedsUpdate = true
  group.updateWorldMatrix(true, false)
}
