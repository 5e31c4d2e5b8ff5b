export default function Home() {
  return <main>Scheduler Console</main>;
}
