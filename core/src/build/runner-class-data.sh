#!/bin/sh
# Creates the runner's class-data-sharing archive (README, "Performance"): a short training session of the
# runner jar records the classes it loads, and ./copilot-autopilot maps them from the archive instead of
# loading and verifying them again at every start. Runs during `mvn package` (core/pom.xml).
#
# The training session is offline: its "Copilot CLI" is a script that replays a captured session, so nothing
# is installed, no model is asked and nothing leaves the machine. Best effort: if anything fails there is no
# archive, and the runner starts as before (the JVM ignores a missing or unusable archive).
#
# Usage: runner-class-data.sh JAVA RUNNER_JAR ARCHIVE CAPTURE
java=$1
jar=$2
archive=$3
capture=$4

rm -f "$archive"
work=$(mktemp -d 2>/dev/null) || { echo "runner class data: no temporary folder, no archive"; exit 0; }
trap 'rm -rf "$work"' EXIT
mkdir "$work/repo"
cp "$capture" "$work/stdout.jsonl" || exit 0
printf '#!/bin/sh\nexec cat "$(dirname "$0")/stdout.jsonl"\n' > "$work/copilot"
chmod +x "$work/copilot"

if COPILOT_GITHUB_TOKEN=github_pat_class_data_training_only "$java" -XX:ArchiveClassesAtExit="$archive" \
     -Xlog:cds=off -Xlog:cds+dynamic=off -jar "$jar" --copilot "$work/copilot" --dir "$work/repo" \
     --journal "$work/journal.jsonl" --timeline "$work/timeline.svg" --prompt "Class data training run" \
     > "$work/log.txt" 2>&1 && [ -s "$archive" ]; then
  echo "runner class data: $archive"
else
  echo "runner class data: not created, the runner starts without it. $(tail -n 3 "$work/log.txt" | tr '\n' ' ')"
  rm -f "$archive"
fi
exit 0
