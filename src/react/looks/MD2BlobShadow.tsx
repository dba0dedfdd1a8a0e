import type { ThreeElements } from '@react-three/fiber'
import { forwardRef, useLayoutEffect, useMemo } from 'react'
import type { Mesh } from 'three'
import { warnOnce } from '../../core/warnOnce.js'
import { createMD2ShadowMaterial } from '../../three/materials/shadowMaterial.js'
import { createMD2ShadowGeometry, placeBlobShadow } from '../../three/mesh/shellShadowGeometry.js'
import type { MD2LookOwner, MD2PoseLayer } from '../MD2ModelContext.js'
import { WornLook, layerMeshProps, markLook, useLayerOwner, useLayerResources } from './useLayerOwner.js'

export interface MD2BlobShadowProps extends Omit<ThreeElements['mesh'], 'ref' | 'geometry' | 'material' | 'children'> {
  /** World height of the floor the shadow lies on. Default: under the model's lowest point in any frame. */
  floor?: number
  /** Whether rays (pointer events, `Raycaster`) may hit the shadow. Default false: clicking the floor under a model is not clicking the model. */
  pickable?: boolean
}

/**
 * Quake II's projected blob shadow (`GL_DrawAliasShadow`) under the `<MD2Model>` it is put in: the posed model
 * moved along the shade vector normalize(cos(−yaw), sin(−yaw), 1) by each vertex's height above the floor and
 * flattened 1 unit above it, black at alpha 0.5, each pixel darkened once where the canvas has a stencil
 * buffer (`<Canvas gl={{ stencil: true }}>`). Written in the same pass as the body, following its animation
 * and its world yaw. Its code ships only with its import. The ref is the shadow's mesh. Inside `<MD2Player>`
 * it shades the body and the weapon; inside `<MD2Instances>` every instance (`floor` for them all), inside
 * `<MD2Instance>` that one, drawn by the crowd in one draw.
 */
export const MD2BlobShadow = markLook(
  forwardRef<Mesh, MD2BlobShadowProps>(function MD2BlobShadow(props, ref) {
    const owner = useLayerOwner('MD2BlobShadow')
    if (!owner) return null
    if (owner.wear) {
      const look = { kind: 'shadow', options: { shadow: 'blob', shadowFloor: checkedFloor(owner.model.name, props.floor) } } as const
      return <WornLook owner={owner} look={look} />
    }
    return <ModelBlobShadow ref={ref} owner={owner} {...props} />
  }),
)

const ModelBlobShadow = forwardRef<Mesh, MD2BlobShadowProps & { owner: MD2LookOwner }>(function ModelBlobShadow(
  { owner, floor, pickable = false, ...meshProps },
  ref,
) {
  const { model, addLayer } = owner
  const { geometry, material } = useLayerResources(model, createMD2ShadowGeometry, createMD2ShadowMaterial)
  const shownFloor = checkedFloor(model.name, floor)
  const layer = useMemo<MD2PoseLayer & { floor: number | undefined }>(
    () => ({
      kind: 'shadow',
      geometry,
      parameters: new Float64Array(4),
      floor: undefined,
      place(body) {
        return placeBlobShadow(this.parameters!, body, model, this.floor)
      },
    }),
    [geometry, model],
  )
  layer.floor = shownFloor
  useLayoutEffect(() => addLayer!(layer), [addLayer, layer])
  return (
    <mesh
      ref={ref}
      geometry={geometry}
      material={material}
      // Drawn wherever its model is: its geometry lies on the floor, away from the model's own bounds.
      frustumCulled={false}
      {...layerMeshProps(model, 'shadow', pickable)}
      {...meshProps}
    />
  )
})

/** A floor height from props: finite, else the default (under the model) with a one-time warning. */
function checkedFloor(name: string | undefined, floor: number | undefined): number | undefined {
  if (floor === undefined || Number.isFinite(floor)) return floor
  warnOnce(
    `${name}:blob-floor:${String(floor)}`,
    `${name ?? 'model'}: <MD2BlobShadow floor={${String(floor)}}> is not a finite height; using the floor under the model`,
  )
  return undefined
}
