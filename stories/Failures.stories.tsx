import type { Meta, StoryObj } from '@storybook/react-vite'
import { Suspense } from 'react'
import { expect } from 'storybook/test'
import { isMD2Error, MD2ErrorBoundary, MD2Model } from '../src/index'
import { MISSING_MODEL, OGRO, OGRO_SKINS, TRUNCATED_MODEL } from './support/assets'
import { describeError, ExpectReportedErrors, unexpectedReportedErrors } from './support/ErrorBoundary'
import { findStage } from './support/pixels'
import { Overlay } from './support/Stage'

/**
 * A model that cannot load fails inside its own error boundary, with the `MD2Error` code and
 * message (naming the file), while the rest of the scene keeps rendering.
 */
function FailureScene({ brokenUrl }: { brokenUrl: string }) {
  return (
    <>
      <ExpectReportedErrors expected={(error) => isMD2Error(error) && error.file === brokenUrl} />
      <group position={[-34, 0, 0]}>
        <MD2ErrorBoundary
          key={brokenUrl}
          fallback={({ error }) => (
            <Overlay role="alert" tone="error" at={{ x: 0.27, y: 0.5 }}>
              {describeError(error)}
            </Overlay>
          )}
        >
          <Suspense fallback={<Overlay at={{ x: 0.27, y: 0.5 }}>loading {brokenUrl}…</Overlay>}>
            <MD2Model url={brokenUrl} animation="run" />
          </Suspense>
        </MD2ErrorBoundary>
      </group>
      <group position={[34, 0, 0]}>
        <Suspense fallback={null}>
          <MD2Model url={OGRO} skin={OGRO_SKINS.igdosh} animation="run" />
        </Suspense>
      </group>
    </>
  )
}

const meta = {
  title: 'Failures',
  component: FailureScene,
  parameters: { stage: { camera: [0, 12, 130] } },
  argTypes: { brokenUrl: { control: 'text' } },
  render: (args) => <FailureScene {...args} />,
} satisfies Meta<typeof FailureScene>

export default meta
type Story = StoryObj<typeof meta>

/** The healthy model is on the right. */
const HEALTHY = { left: 0.5 }

/**
 * The broken model's boundary shows its `MD2Error` (code, URL, and `detail`) while the healthy Ogro is
 * drawn and animated beside it, and nothing reaches the page as an unexpected error.
 */
function expectErrorBeside(code: string, url: string, detail: string) {
  return async ({
    canvasElement,
    canvas,
  }: {
    canvasElement: HTMLElement
    canvas: { findByRole: (role: string, options: object, wait: object) => Promise<HTMLElement> }
  }) => {
    const stage = await findStage(canvasElement)
    const alert = await canvas.findByRole('alert', {}, { timeout: 60_000 })
    await expect(alert.textContent).toMatch(new RegExp(`^MD2Error ${code}: `))
    await expect(alert.textContent).toContain(url)
    await expect(alert.textContent).toContain(detail)
    await stage.expectModel(HEALTHY)
    await stage.expectAnimated(HEALTHY)
    // A count, not an array comparison: the production build's instrumented expect misreads arrays.
    await expect(unexpectedReportedErrors.length, `unexpected errors: ${unexpectedReportedErrors.map(String).join('; ')}`).toBe(0)
  }
}

/** A real model cut short after 20,000 bytes (stories/fixtures): `TRUNCATED`, and Ogro plays on. */
export const DamagedFile: Story = {
  args: { brokenUrl: TRUNCATED_MODEL },
  parameters: { expected: { messages: [TRUNCATED_MODEL] } },
  play: expectErrorBeside('TRUNCATED', TRUNCATED_MODEL, 'frames at offset 9424'),
}

/** A URL that answers 404: `LOAD_FAILED` naming the URL, and Ogro plays on. */
export const MissingFile: Story = {
  args: { brokenUrl: MISSING_MODEL },
  // The 404 and the error it causes are the point of the story.
  parameters: { expected: { failedRequests: [MISSING_MODEL], messages: [MISSING_MODEL] } },
  play: expectErrorBeside('LOAD_FAILED', MISSING_MODEL, '404'),
}
