import type { MD2ModelData } from '../../core/format/types.js'
import { CrowdQueries } from './CrowdQueries.js'
import { MD2CrowdBase, type CrowdDress } from './MD2CrowdBase.js'
import type { MD2CrowdOptions } from './gpu/MD2CrowdOptions.js'
import { CrowdLooks } from './CrowdLooks.js'

export type { MD2CrowdOptions } from './gpu/MD2CrowdOptions.js'

/** The looks' and the queries' code every `MD2Crowd` is made with. */
const dress: CrowdDress = { looks: (crowd, options) => new CrowdLooks(crowd, options), queries: CrowdQueries }

/**
 * Many instances of one MD2 model in one draw call, animated on the GPU (everything `MD2CrowdBase` does),
 * with their looks: power-up shells and blob shadows per instance (`shell`, `shadow`, `setShell`,
 * `setShadow`, `shadowFloor`) and Quake II light (`lighting: "quake2"`, `setLighting`, `setShadelight`),
 * drawn from the poses of the instances in view, written every frame while any is worn; and its queries
 * (`raycast`, `getPoseBounds`) answered from the first call.
 *
 * The crowd `react-three-md2/three` gives. `<MD2Instances>` makes one of these once the app imports a look
 * (`<MD2Shell>`, `<MD2BlobShadow>`, `<MD2Quake2Lighting>`), and an `MD2CrowdBase` otherwise, whose look
 * members throw an `MD2Error` naming that import and whose queries load on demand: a plain crowd ships
 * neither.
 */
export class MD2Crowd extends MD2CrowdBase {
  constructor(model: MD2ModelData, options: MD2CrowdOptions) {
    super(model, options, dress)
  }
}
