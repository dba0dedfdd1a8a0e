import { useLayoutEffect, useMemo, type ReactNode } from 'react'
import type { MD2ModelData } from '../../core/format/types.js'
import type { Quake2LightFlags } from '../../core/lighting/quake2Light.js'
import { warnOnce } from '../../core/warnOnce.js'
import { Quake2Lighting } from '../../three/materials/Quake2Lighting.js'
import type { MD2LookOwner, MD2PoseLayer } from '../MD2ModelContext.js'
import { WornLook, markLook, useLayerOwner } from './useLayerOwner.js'

export interface MD2Quake2LightingProps extends Quake2LightFlags {
  /** The light at the model's feet (what the engine samples from the lightmap below it): one level or RGB. Default 1. */
  shadelight?: number | readonly [number, number, number]
}

/**
 * Lights the `<MD2Model>` it is put in as Quake II's renderer does (`R_DrawAliasModel`), not with three's
 * lights: each vertex's colour is the engine's light table entry for its normal (in the frame blended
 * towards) and the model's world yaw, times `shadelight`, clamped to 1, and the skin is modulated by it on
 * an unlit material. `minlight` (RF_MINLIGHT: a shadelight whose channels are all ≤ 0.1 is raised to 0.1),
 * `fullbright` (RF_FULLBRIGHT: shadelight 1), `glow` (RF_GLOW: pulses by 0.1 × sin(7 t), never below 0.8 of
 * itself). Written in the same pass as the pose; the table is rebuilt only when the yaw crosses into
 * another of its 16 rows or the light changes. Its code ships only with its import. Renders nothing itself.
 * Inside `<MD2Player>` it lights the body and the weapon; inside `<MD2Instances>` every instance (in the
 * crowd's shader); inside `<MD2Instance>`, under a crowd so lit, that instance's `shadelight`.
 */
export const MD2Quake2Lighting = markLook(function MD2Quake2Lighting(props: MD2Quake2LightingProps): ReactNode {
  const owner = useLayerOwner('MD2Quake2Lighting')
  if (!owner) return null
  if (owner.wear) {
    const { shadelight, minlight, fullbright, glow } = props
    // In one instance only its shadelight, in a crowd lit the Quake II way: the shader and the flags are the crowd's.
    if (
      owner.component === '<MD2Instance>' &&
      (owner.lighting !== 'quake2' || minlight !== undefined || fullbright !== undefined || glow !== undefined)
    ) {
      warnOnce(
        `${owner.model.name}:instance-light`,
        `<MD2Quake2Lighting> in an <MD2Instance> (${owner.model.name ?? 'model'}) gives its shadelight alone, in a crowd lit by an <MD2Quake2Lighting> in <MD2Instances>; ignored here`,
      )
      return null
    }
    const level = shadelight === undefined ? undefined : checkedShadelight(owner.model, shadelight)
    const look = { kind: 'light', options: { lighting: 'quake2', shadelight: level, minlight, fullbright, glow } } as const
    return <WornLook owner={owner} look={look} />
  }
  return <ModelLighting owner={owner} {...props} />
})

function ModelLighting({
  owner,
  shadelight = 1,
  minlight = false,
  fullbright = false,
  glow = false,
}: MD2Quake2LightingProps & { owner: MD2LookOwner }): null {
  const { model, addLayer } = owner
  const lighting = useMemo(() => new Quake2Lighting(), [])
  lighting.set({ shadelight: checkedShadelight(model, shadelight), minlight, fullbright, glow })
  const layer = useMemo<MD2PoseLayer>(
    () => ({ kind: 'light', light: lighting, place: (body, clock) => lighting.update(body, clock) }),
    [lighting],
  )
  useLayoutEffect(() => addLayer!(layer), [addLayer, layer])
  return null
}

/** A shadelight from props: finite and not negative, else 1 with a one-time warning. */
function checkedShadelight(model: MD2ModelData, value: number | readonly number[]): number | [number, number, number] {
  const channels = typeof value === 'number' ? [value, value, value] : value
  if (channels.length === 3 && channels.every((c) => Number.isFinite(c) && c >= 0))
    return typeof value === 'number' ? value : [channels[0]!, channels[1]!, channels[2]!]
  warnOnce(
    `${model.name}:shadelight:${String(value)}`,
    `${model.name ?? 'model'}: shadelight={${JSON.stringify(value)}} is not a level or [r, g, b] of finite numbers ≥ 0; using 1`,
  )
  return 1
}
