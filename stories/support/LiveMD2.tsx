import { MD2Model, type MD2ModelProps } from '../../src/index'
import { useLiveArgs } from './live-args'

/** <MD2Model> with its props from the story's args (and from play functions, see live-args). */
export function LiveMD2(props: MD2ModelProps) {
  const live = useLiveArgs(props)
  return <MD2Model {...live} />
}
