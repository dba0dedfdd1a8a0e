import { MD2BlobShadow, MD2Model, MD2PoseBounds, MD2Quake2Lighting, MD2Shell } from 'react-three-md2'

/** An ogro as Quake II draws a player with quad damage: its light, a blue shell, a blob shadow. */
export function QuadOgro({ quad, light }: { quad: boolean; light: number }) {
  return (
    <MD2Model url="/players/ogro/tris.MD2" animation="run">
      <MD2Quake2Lighting shadelight={light} minlight />
      {quad && <MD2Shell color="blue" />}
      <MD2BlobShadow floor={-24} />
      {/* The box of the pose drawn, for colliders and Box3.setFromObject. */}
      <MD2PoseBounds />
      <MD2Model url="/players/ogro/weapon.md2" sync>
        <MD2Quake2Lighting shadelight={light} minlight />
        {quad && <MD2Shell color="blue" />}
      </MD2Model>
    </MD2Model>
  )
}
