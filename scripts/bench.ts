/** `npm run bench`: runs each registered benchmark in turn and prints its figures. */
import { printEngineBench, runEngineBench } from './bench/engine-bench';

interface Benchmark {
  name: string;
  run: () => void | Promise<void>;
}

const benchmarks: Benchmark[] = [{ name: 'engine', run: () => printEngineBench(runEngineBench()) }];

const only = process.argv.slice(2);
for (const b of benchmarks) {
  if (only.length > 0 && !only.includes(b.name)) continue;
  await b.run();
}
