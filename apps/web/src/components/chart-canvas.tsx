import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  Legend,
  LinearScale,
  LineElement,
  PointElement,
  ScatterController,
  Title,
  Tooltip,
} from 'chart.js'
import { useEffect, useRef } from 'preact/hooks'

// Only what the Evaluation view draws (bars, a curve of points): the rest of Chart.js stays out of the page.
Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  ScatterController,
  PointElement,
  LineElement,
  Legend,
  Title,
  Tooltip,
)

/** One chart (a Chart.js configuration, from @rag/evaluation/charts), redrawn when it changes. */
export function ChartCanvas({ config, label }: { config: ChartConfiguration; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null)
  useEffect(() => {
    if (!canvas.current) return
    const chart = new Chart(canvas.current, config)
    return () => chart.destroy()
  }, [config])
  return (
    <div class="chart">
      <canvas ref={canvas} role="img" aria-label={label} />
    </div>
  )
}
