#!/bin/sh
# EXPERIMENT: the pipeline variants against the csv-parse floor, interleaved, ROUNDS times.
# Usage: sh bench/experiments/compare.sh FILE KIND [ROUNDS]
FILE=$1; KIND=$2; ROUNDS=${3:-2}
for r in $(seq "$ROUNDS"); do
  /usr/bin/time -f '{"floor":true,"user":%U,"sys":%S,"wall":%e,"rssKB":%M}' node bench/lib/floor-csv-parse.js "$FILE" >/dev/null
  node bench/experiments/pipeline.js "$FILE" "$KIND"
  node bench/experiments/pipeline.js "$FILE" "$KIND" --validator fast
  node bench/experiments/pipeline.js "$FILE" "$KIND" --reader fast
  node bench/experiments/pipeline.js "$FILE" "$KIND" --reader fast --validator fast
  node bench/experiments/pipeline.js "$FILE" "$KIND" --reader fast --validator fast --no-retain
  node --max-semi-space-size=32 bench/experiments/pipeline.js "$FILE" "$KIND" --reader fast --validator fast
done 2>&1
