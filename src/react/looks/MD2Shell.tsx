import type { ThreeElements } from '@react-three/fiber'
import { forwardRef, useLayoutEffect } from 'react'
import type { Mesh } from 'three'
import type { ShellSpec } from '../../core/lighting/quake2Light.js'
import { createMD2ShellMaterial, setShellColor } from '../../three/materials/shellMaterial.js'
import { createMD2ShellGeometry } from '../../three/mesh/shellShadowGeometry.js'
import type { MD2LookOwner } from '../MD2ModelContext.js'
import { WornLook, layerMeshProps, markLook, useLayerOwner, useLayerResources } from './useLayerOwner.js'

export interface MD2ShellProps extends Omit<ThreeElements['mesh'], 'ref' | 'geometry' | 'material' | 'children'> {
  /**
   * Which power-up shells (`RF_SHELL_*`), in the colour `R_DrawAliasModel` gives them: `"red"`
   * (invulnerability), `"green"`, `"blue"` (quad damage), `"double"` (double damage), `"half"` (half
   * damage), an `[r, g, b]`, or several (quad and invulnerability: `["blue", "red"]`, magenta). `[]`: none.
   */
  color: ShellSpec | readonly ShellSpec[]
  /** Whether rays (pointer events, `Raycaster`) may hit the shell. Default false: clicking the glow is not clicking the model. */
  pickable?: boolean
}

/**
 * Quake II's power-up shell around the `<MD2Model>` it is put in: a second copy of the posed model, untextured
 * at alpha 0.3, every vertex pushed 4 units (`POWERSUIT_SCALE`) out along the normal of the frame blended
 * towards, written in the same pass as the body (crossfades and synced weapons included). Its code ships
 * only with its import. The ref is the shell's mesh; other mesh props go on it. Inside `<MD2Player>` it
 * shells the body and the weapon; inside `<MD2Instances>` every instance, inside `<MD2Instance>` that one
 * (`color={[]}` there: none, whatever the crowd wears), drawn by the crowd in one draw.
 */
export const MD2Shell = markLook(
  forwardRef<Mesh, MD2ShellProps>(function MD2Shell(props, ref) {
    const owner = useLayerOwner('MD2Shell')
    if (!owner) return null
    if (owner.wear) return <WornLook owner={owner} look={{ kind: 'shell', options: { shell: props.color } }} />
    return <ModelShell ref={ref} owner={owner} {...props} />
  }),
)

const ModelShell = forwardRef<Mesh, MD2ShellProps & { owner: MD2LookOwner }>(function ModelShell(
  { owner, color, pickable = false, ...meshProps },
  ref,
) {
  const { model, addLayer } = owner
  const none = typeof color !== 'string' && color.length === 0
  const { geometry, material } = useLayerResources(model, createMD2ShellGeometry, createMD2ShellMaterial)
  // By value: an array prop is a new object every render.
  const colorKey = JSON.stringify(color)
  useLayoutEffect(() => {
    const spec = JSON.parse(colorKey) as ShellSpec | ShellSpec[]
    if (typeof spec === 'string' || spec.length > 0) setShellColor(material, spec)
  }, [material, colorKey])
  useLayoutEffect(() => (none ? undefined : addLayer!({ kind: 'shell', geometry })), [addLayer, geometry, none])
  if (none) return null
  return <mesh ref={ref} geometry={geometry} material={material} {...layerMeshProps(model, 'shell', pickable)} {...meshProps} />
})
