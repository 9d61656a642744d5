# The peer of the benchmark's answer check: Python's jsonschema validating the answer, its median time in ms.
import json, statistics, sys, time
from jsonschema import Draft202012Validator

schema = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
rounds = int(sys.argv[3])
validator = Draft202012Validator(schema)
times = []
for i in range(rounds + 20):
    t0 = time.perf_counter()
    errors = list(validator.iter_errors(json.loads(text)))
    t1 = time.perf_counter()
    if errors:
        sys.exit("unexpected errors: %s" % errors[0])
    if i >= 20:
        times.append((t1 - t0) * 1000)
print("%.3f" % statistics.median(times))
