#!/bin/sh
in=''
# The launch script of copilot-autopilot (LaunchScript renders it: the line above gets the launch folder's path, the
# only data in this file). The task, the arguments, the working directory, the variables and the settings are read
# from files in that folder as data, so no user text is ever parsed by a shell, however this script is started:
# durable-task in Jenkins, a container's exec, a decorator that quotes arguments, the runner.
#
# The folder this script is in is the session's control folder: the CLI's events go to this script's standard output,
# its errors, exit code, private COPILOT_HOME and heartbeat to the control folder. What the script does is mechanics
# that must go on without anyone following it (a controller restart): run the CLI, watch it (heartbeat, stop file,
# wall-clock limit), run the acceptance check, record what changed. What the session's events mean, and what comes
# after the CLI or the check, is decided by the follower, which answers the script's waits (answer-N files).

# durable-task's cookie: shed here and handed to what the session starts (take_cookie), so that a stop through
# durable-task (a kill of what carries the cookie) ends the CLI and its tools and leaves this script to note the end
if [ -n "${JENKINS_SERVER_COOKIE:-}" ]; then
  COPILOT_AUTOPILOT_COOKIE=$JENKINS_SERVER_COOKIE
  export COPILOT_AUTOPILOT_COOKIE
  unset JENKINS_SERVER_COOKIE
  exec /bin/sh "$0"
fi
case $0 in */*) c=${0%/*} ;; *) c=. ;; esac
case $c in /*) ;; *) c=$(cd "$c" && pwd) || exit 126 ;; esac
exec 2>>"$c/stderr.txt" </dev/null

# ---- functions ----

# text as the content of a JSON string
json() { printf '%s' "$1" | tr -d '\000-\037' | sed 's/[\\"]/\\&/g'; }

# the time to the millisecond, as the CLI stamps its events: GNU and busybox date know %N, BSD's (macOS) does not, and
# there perl does; to the second where neither can
case $(date -u +%3N 2>/dev/null) in
  [0-9][0-9][0-9]) now() { date -u +%Y-%m-%dT%H:%M:%S.%3NZ; } ;;
  *) if command -v perl > /dev/null 2>&1; then
       now() { perl -MPOSIX=strftime -MTime::HiRes=time -e '$t = time; printf("%s.%03dZ\n", strftime("%Y-%m-%dT%H:%M:%S", gmtime($t)), ($t - int($t)) * 1000)'; }
     else
       now() { date -u +%Y-%m-%dT%H:%M:%SZ; }
     fi ;;
esac

# the launch cannot go on: why (one line) and the exit code
fail() {
  hand_over
  printf '%s\n' "$2" > "$c/launch-error"
  printf '%s\n' "$1" > "$c/exit-code"
  [ "$in" = "$c" ] || rm -rf "$in"
  exit "$1"
}

# signals every process of the run (what carries the run's marker) but this script's own; false when there is none
# (or no /proc)
sweep() {
  [ -n "$run_id" ] && [ -r /proc/self/environ ] || return 1
  found=
  for f in $(unset COPILOT_AUTOPILOT_RUN_ID; grep -l -F -e "COPILOT_AUTOPILOT_RUN_ID=$run_id" /proc/[0-9]*/environ 2>/dev/null); do
    f=${f#/proc/}
    found="$found ${f%/environ}"
  done
  [ -n "$found" ] || return 1
  # shellcheck disable=SC2086 # a list of process ids
  kill -"$1" $found 2>/dev/null
  return 0
}

stopped() { [ -f "$c/stopped" ] || [ -f "$c/stop" ]; }

# A session run as root for an agent that runs as another user (docker-workflow's inside('-u root') on an agent that
# runs as a service account) hands what it makes in the control folder (the CLI's home, made private by the CLI) to
# that user, who reads the usage records in it and deletes the folder at the end: on every heartbeat and at the end.
# -h: a link in the folder is changed itself, never what it points to.
owner=
hand_over() { [ -z "$owner" ] || chown -hR "$owner" "$c" 2>/dev/null || true; }

# a second's sleep that a TERM to the (sub)shell taking it ends at once, sleep and all (with nap_ends as its trap): what
# beats for the session leaves no process behind when it is stopped. A TERM that comes after the sleep has started but
# before its pid is noted (the trap runs between the two) still finds it: $! is no longer what it was before the nap.
# The trap waits for the sleep to be gone: on a busy machine a killed process may not have ended yet, and a TERM that
# reaches the sleep before it has become sleep (still the shell's copy, with its handler) is lost, so it sleeps its second.
napping=
nap() {
  before=$!
  napping=starting
  sleep 1 &
  napping=$!
  wait "$napping"
  napping=
}
# shellcheck disable=SC2317 # run as a trap
nap_ends() {
  case $napping in
    '') ;;
    starting) [ "$!" = "$before" ] || { kill "$!" 2>/dev/null; wait "$!"; } ;;
    *) kill "$napping" 2>/dev/null; wait "$napping" ;;
  esac
  exit 0
}

# runs while process $1 runs: a heartbeat every second; stops it (SIGTERM, a grace period, SIGKILL, and every process
# of the run) when the stop file appears, at the wall-clock limit, or when the control folder is gone. Its own
# processes (the sleep it is killed in) do not carry the run's marker: the sweep after the CLI would wait for them.
# A deleted control folder comes back as soon as the CLI writes under its home again (it makes the folders it needs):
# the pid file, written before the watchdog starts, is what tells; what the CLI made again goes once it is stopped.
watchdog() {
  unset COPILOT_AUTOPILOT_RUN_ID
  trap nap_ends TERM
  n=0
  if [ "$limit" -gt 0 ]; then n=$(( $(date +%s) - t0 )); fi
  why=
  while kill -0 "$1" 2>/dev/null; do
    if ! [ -f "$c/cli.pid" ] || ! echo "$n" > "$c/heartbeat"; then why=gone; break; fi
    hand_over
    if [ -f "$c/stop" ]; then why=stop; break; fi
    if [ "$limit" -gt 0 ] && [ "$n" -ge "$limit" ]; then why=limit; break; fi
    nap
    n=$((n + 1))
  done
  [ -n "$why" ] || exit 0
  trap - TERM
  printf '%s\n' "$why" > "$c/stopped"
  kill -TERM "$1" 2>/dev/null
  sweep TERM
  g=0
  while [ "$g" -lt "$kill_grace" ] && kill -0 "$1" 2>/dev/null; do sleep 1; g=$((g + 1)); done
  kill -KILL "$1" 2>/dev/null
  sweep KILL
  if [ "$why" = gone ]; then
    rm -rf "$c"
    case ${c%/*} in *@tmp) rmdir "${c%/*}" 2>/dev/null ;; esac
  fi
  exit 0
}

# While the script works itself (getting ready, the snapshot before the CLI, what it records after) rather than the
# watchdog beating for what it runs, a heartbeat of its own, as long as the script runs: a session killed with its
# machine then is taken for lost as one killed while the CLI runs, and a long snapshot of a large work tree is not.
# Started before the launch files go (until then they tell that the session has not started); without the run's marker.
# It runs while the file beat is there and is stopped by its removal, not by a signal, so that no sleep of it outlives
# it: it looks five times a second (every second where sleep takes whole seconds only).
beating=
beat_on() {
  echo 0 > "$c/heartbeat"
  : > "$c/beat"
  (
    unset COPILOT_AUTOPILOT_RUN_ID
    t=0
    while [ -f "$c/beat" ] && kill -0 "$1" 2>/dev/null; do
      if sleep 0.2 2>/dev/null; then t=$((t + 1)); else sleep 1; t=5; fi
      if [ "$t" -ge 5 ]; then
        t=0
        [ -f "$c/beat" ] && echo 0 > "$c/heartbeat"
      fi
    done
  ) 2>/dev/null &
  beating=$!
}
beat_off() {
  rm -f "$c/beat"
  if [ -n "$beating" ]; then wait "$beating" 2>/dev/null; fi
  beating=
}

# waits for process $1 (the CLI, the check, a wait) under the watchdog; sets $ended to its exit code. What the agent
# left running in the background (a server it started) ends with it.
guard() {
  exec 3<&-
  echo "$1" > "$c/cli.pid"
  watchdog "$1" >/dev/null &
  w=$!
  wait "$1"
  ended=$?
  # a watchdog that stops it (also for a deleted control folder, which it may not have been able to mark) finishes
  if ! stopped && [ -f "$c/cli.pid" ]; then kill "$w" 2>/dev/null; fi
  wait "$w"
  if sweep TERM; then
    g=0
    while [ "$g" -lt "$kill_grace" ] && sweep 0; do sleep 1; g=$((g + 1)); done
    sweep KILL
  fi
}

# what the session starts carries durable-task's cookie, so that a stop through durable-task finds it
take_cookie() {
  if [ -n "${COPILOT_AUTOPILOT_COOKIE:-}" ]; then
    JENKINS_SERVER_COOKIE=$COPILOT_AUTOPILOT_COOKIE
    export JENKINS_SERVER_COOKIE
  fi
}

# the CLI with these arguments and the task on fd 3; sets $code
run_cli() {
  (
    take_cookie
    exec "$cli" "$@" <&3 3<&- 2>>"$c/stderr.txt"
  ) &
  guard $!
  code=$ended
}

# the acceptance check: the build's environment, as sh has it (not the CLI's own credentials and home); prints its
# start, the last lines of its output and its end; sets $result
run_check() {
  round=$((round + 1))
  printf '{"type":"autopilot.verify_started","timestamp":"%s","data":{"round":%s}}\n' "$(now)" "$round"
  (
    take_cookie
    unset COPILOT_HOME COPILOT_AUTOPILOT_COOKIE COPILOT_GITHUB_TOKEN COPILOT_PROVIDER_API_KEY
    exec /bin/sh -c "$verify" </dev/null >"$c/verify.out" 2>&1
  ) &
  guard $!
  result=$ended
  tail -n "$verify_lines" "$c/verify.out" | cut -c "1-$verify_chars" | while IFS= read -r l || [ -n "$l" ]; do
    printf '{"type":"autopilot.verify_output","data":{"text":"%s"}}\n' "$(json "$l")"
  done
  rm -f "$c/verify.out"
  cut=false
  if stopped; then cut=true; fi
  printf '{"type":"autopilot.verify_finished","timestamp":"%s","data":{"round":%s,"exitCode":%s,"stopped":%s}}\n' \
    "$(now)" "$round" "$result" "$cut"
}

# says that it waits (after $1, with exit code $2) and waits, under the watchdog, for the follower's answer-N (at most
# $await seconds: nobody may be left to answer); sets $answer (empty when none came). A question that could not be
# written (a full disk) reaches nobody: no wait then.
await() {
  step=$((step + 1))
  answer=
  printf '{"type":"autopilot.awaiting","timestamp":"%s","data":{"step":%s,"after":"%s","exitCode":%s}}\n' \
    "$(now)" "$step" "$1" "$2" || return 0
  a="$c/answer-$step"
  (
    take_cookie # a stop through durable-task alone ends the wait too
    s=0
    while [ ! -f "$a" ] && [ "$s" -lt $((await * 5)) ]; do
      sleep 0.2 2>/dev/null || { sleep 1; s=$((s + 4)); }
      s=$((s + 1))
    done
  ) &
  guard $!
  if [ -f "$a" ]; then IFS= read -r answer < "$a" || true; fi
}

# why this machine cannot run the CLI's sandbox (a word the follower turns into a sentence, and what is missing), or
# nothing; what the CLI's own probe does not check (copilot help sandbox), tried here before the session starts
sandbox_problem() {
  case $(uname -s) in
    Linux)
      missing=
      # the CLI looks for these on the PATH ("requires 'ip' on PATH to enforce proxy-only egress")
      for p in bwrap slirp4netns unshare nsenter ip; do
        command -v "$p" >/dev/null 2>&1 || missing="$missing $p"
      done
      for p in iptables ip6tables iptables-restore ip6tables-restore; do
        command -v "$p" >/dev/null 2>&1 || [ -x "/usr/sbin/$p" ] || [ -x "/sbin/$p" ] || missing="$missing $p"
      done
      if [ -n "$missing" ]; then echo "sandbox-missing$missing"; return; fi
      if ! [ -r /dev/net/tun ] || ! [ -w /dev/net/tun ]; then echo "sandbox-tun"; return; fi
      if ! out=$(bwrap --ro-bind / / --dev /dev --proc /proc --unshare-all true 2>&1); then
        echo "sandbox-namespaces $(printf '%s' "$out" | head -n 1)"
      fi ;;
    Darwin) command -v sandbox-exec >/dev/null 2>&1 || echo "sandbox-missing sandbox-exec" ;;
    *) echo "sandbox-unsupported $(uname -s)" ;;
  esac
}

# the name of the first entry of folder $1 (a session's id in session-state), or nothing
first_entry() {
  for e in "$1"/*; do
    if [ -e "$e" ]; then printf '%s\n' "${e##*/}"; return; fi
  done
}

# usable DIR: DIR is (or can be made) a folder this user can write
usable() { { [ -d "$1" ] || mkdir -p "$1" 2>/dev/null; } && [ -d "$1" ] && [ -w "$1" ]; }

# read_file VAR FILE: sets VAR to the bytes of FILE exactly (line feeds kept, a last line without one too), without a
# process of its own (a cat per file cost the CLI's start a few ms each); false when FILE cannot be read
read_file() {
  [ -r "$2" ] || return 1
  r_text=
  r_line=
  while IFS= read -r r_line; do r_text="$r_text$r_line
"; done < "$2" || return 1
  eval "$1=\$r_text\$r_line"
}

# snapshot before|after: when the working directory is in a git work tree, the state of the working directory's part
# of it (tracked and untracked files, .gitignore respected) as a git tree object, written with a temporary index, so
# that the work tree, its index, branches and refs are never touched. The first starts from the real index; the
# second from the first's, so that both know the same files. New untracked files are added only while there are at
# most $untracked_files of them, of at most $untracked_kb KB in all; else they are left out and an event says so.
# Without the run's marker variable, so that stopping the run's processes leaves it alone.
snapshot() (
  unset COPILOT_AUTOPILOT_RUN_ID
  [ "$changes" != 0 ] || exit 0
  command -v git >/dev/null 2>&1 || exit 0
  git rev-parse --show-toplevel >/dev/null 2>&1 || exit 0
  if git check-ignore -q . 2>/dev/null; then exit 0; fi
  index=$(git rev-parse --git-path index 2>/dev/null) || exit 0
  i="$c/git-$1.index"
  if [ "$1" = after ]; then index="$c/git-before.index"; fi
  if [ -f "$index" ]; then cp "$index" "$i"; fi
  GIT_INDEX_FILE=$i
  export GIT_INDEX_FILE
  git add -u -- . >/dev/null 2>&1 || exit 0
  n=$(git ls-files -o --exclude-standard -z -- . 2>/dev/null | tr -cd '\000' | wc -c | tr -d ' ')
  if [ "${n:-0}" -gt 0 ]; then
    k=0
    if [ "$n" -le "$untracked_files" ]; then
      k=$(git ls-files -o --exclude-standard -z -- . 2>/dev/null | xargs -0 du -k -- 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
    fi
    if [ "$n" -le "$untracked_files" ] && [ "${k:-0}" -le "$untracked_kb" ]; then
      git add -A -- . >/dev/null 2>&1 || exit 0
    else
      printf '{"type":"autopilot.changes_left_out","data":{"snapshot":"%s","files":%s,"kilobytes":%s,"maxFiles":%s,"maxKilobytes":%s}}\n' \
        "$1" "$n" "${k:-0}" "$untracked_files" "$untracked_kb"
    fi
  fi
  git write-tree > "$c/git-$1.tree"
)

# what changed between the two snapshots: names with their status, line counts, and the patch (cut)
record_changes() {
  [ -s "$c/git-before.tree" ] && [ -s "$c/git-after.tree" ] || return 0
  (
    unset COPILOT_AUTOPILOT_RUN_ID
    b=$(cat "$c/git-before.tree"); a=$(cat "$c/git-after.tree")
    git diff-tree -r -z --no-renames --numstat "$b" "$a" > "$c/changes.numstat.tmp" &&
    git -c core.quotepath=false diff-tree -r -p --no-renames --no-color --no-ext-diff --no-textconv "$b" "$a" \
      | head -c "$((patch_bytes + 1))" > "$c/changes.patch"
    git diff-tree -r -z --no-renames --name-status "$b" "$a" > "$c/changes.status.tmp" &&
    mv "$c/changes.numstat.tmp" "$c/changes.numstat" &&
    mv "$c/changes.status.tmp" "$c/changes.status"
  )
}

# ---- the launch files ----

[ -d "$in" ] || fail 126 "the launch files are gone ($in)"
for f in "$in/env"/*; do
  [ -f "$f" ] || continue
  read_file v "$f" || fail 126 "cannot read $f"
  export "${f##*/}=$v"
done
v='' r_text='' r_line=''
# the variables' files hold secrets: gone at once, beside the launch rather than before it
rm -rf "$in/env" &
run_id=${COPILOT_AUTOPILOT_RUN_ID:-}
COPILOT_HOME=$c/copilot-home
export COPILOT_HOME
if ! [ -O "$c" ] && [ "$(id -u)" = 0 ]; then
  owner=$(stat -c %u:%g "$c" 2>/dev/null || stat -f %u:%g "$c" 2>/dev/null)
  case $owner in 0:* | '') owner= ;; esac
fi

limit=0 describe='' changes=1 keep='' sandbox='' answers='' approvals='' approval_wait=360 own_hooks='' otel='' kill_grace=3 await=900 retries=0
untracked_files=10000 untracked_kb=102400 patch_bytes=1048576 verify_lines=60 verify_chars=1000
if [ -f "$in/launch" ]; then
  while IFS='=' read -r k v || [ -n "$k" ]; do
    case $k in
      watchdog) limit=$v ;; describe) describe=$v ;; changes) changes=$v ;; keep) keep=$v ;; sandbox) sandbox=$v ;;
      answers) answers=$v ;; approvals) approvals=$v ;; approval_wait) approval_wait=$v ;; own_hooks) own_hooks=$v ;; otel) otel=$v ;;
      kill_grace) kill_grace=$v ;; await) await=$v ;; untracked_files) untracked_files=$v ;;
      untracked_kb) untracked_kb=$v ;; patch_bytes) patch_bytes=$v ;; verify_lines) verify_lines=$v ;;
      verify_chars) verify_chars=$v ;; retries) retries=$v ;;
    esac
  done < "$in/launch"
fi
for v in "$limit" "$approval_wait" "$kill_grace" "$await" "$retries" "$untracked_files" "$untracked_kb" "$patch_bytes" "$verify_lines" "$verify_chars"; do
  case $v in '' | *[!0-9]*) fail 126 "a launch setting is not a number: $v" ;; esac
done
verify=
if [ -f "$in/verify" ]; then
  verify=$(cat "$in/verify"; printf x) || fail 126 "cannot read the verify command"
  verify=${verify%x}
fi
t0=0
if [ "$limit" -gt 0 ]; then t0=$(date +%s); fi
set --
while IFS= read -r a || [ -n "$a" ]; do set -- "$@" "$a"; done < "$in/arguments"
cli=$1
shift

# a session kept from an earlier run: its state goes into this run's CLI home, and the CLI resumes it. Unpacked beside
# the session state and moved in only once the offset is written: whoever reads the state's usage records meanwhile
# finds no record, never one without its offset (what the kept record already holds is the earlier runs').
if [ -f "$in/kept-session.tgz" ]; then
  if ! { mkdir -p "$COPILOT_HOME/kept" "$COPILOT_HOME/session-state" &&
      tar -xzf "$in/kept-session.tgz" -C "$COPILOT_HOME/kept"; }; then
    fail 126 "cannot unpack the kept session"
  fi
  rm -f "$in/kept-session.tgz"
  kept=$(first_entry "$COPILOT_HOME/kept")
  [ -n "$kept" ] || fail 126 "the kept session holds no session"
  if ! { wc -c < "$COPILOT_HOME/kept/$kept/events.jsonl" | tr -d ' ' > "$c/kept-session.offset.tmp" &&
      mv "$c/kept-session.offset.tmp" "$c/kept-session.offset" &&
      mv "$COPILOT_HOME/kept/$kept" "$COPILOT_HOME/session-state/$kept"; }; then
    fail 126 "cannot unpack the kept session"
  fi
  set -- "$@" "--resume=$kept"
fi
if [ -f "$in/mcp-config.json" ]; then
  [ "$in" = "$c" ] || mv -f "$in/mcp-config.json" "$c/mcp-config.json" || fail 126 "cannot keep the MCP configuration"
  set -- "$@" "--additional-mcp-config=@$c/mcp-config.json"
fi
# the approval hook (approveTools): kept in the control folder, configured in the CLI's private home, told where the
# control folder is; the repository's hooks stay off, since a repository's settings can switch off every hook
if [ "$approvals" = 1 ]; then
  if [ "$in" != "$c" ]; then
    mv -f "$in/approve.sh" "$in/approval-rules" "$c/" || fail 126 "cannot keep the approval hook"
  fi
  if ! { mkdir -p "$COPILOT_HOME/hooks" && mv -f "$in/approval-hook.json" "$COPILOT_HOME/hooks/copilot-autopilot.json"; }; then
    fail 126 "cannot configure the approval hook in $COPILOT_HOME"
  fi
  COPILOT_AUTOPILOT_CONTROL=$c
  COPILOT_AUTOPILOT_APPROVAL_WAIT=$approval_wait
  export COPILOT_AUTOPILOT_CONTROL COPILOT_AUTOPILOT_APPROVAL_WAIT
fi
if [ "$own_hooks" = 1 ]; then
  unset COPILOT_ALLOW_ALL GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS
fi
# the CLI's OpenTelemetry spans and metrics (otel): its file exporter, into the control folder, and nowhere else
if [ "$otel" = 1 ]; then
  COPILOT_OTEL_ENABLED=true
  COPILOT_OTEL_EXPORTER_TYPE='file'
  COPILOT_OTEL_FILE_EXPORTER_PATH=$c/otel.jsonl
  export COPILOT_OTEL_ENABLED COPILOT_OTEL_EXPORTER_TYPE COPILOT_OTEL_FILE_EXPORTER_PATH
fi

# ---- the CLI ----

if [ -z "$cli" ]; then
  cli=$(command -v copilot) || fail 127 "the Copilot CLI was not found: there is no copilot on the PATH ($PATH)"
elif [ -d "$cli" ]; then
  for p in "$cli"/node_modules/@github/copilot-*/copilot "$cli"/copilot "$cli"/bin/copilot; do
    if [ -f "$p" ] && [ -x "$p" ]; then cli=$p; break; fi
  done
  [ -d "$cli" ] && fail 127 "the Copilot CLI was not found in the folder $cli"
fi
[ -e "$cli" ] || fail 127 "cannot run $cli (No such file or directory)"
if ! [ -f "$cli" ] || ! [ -x "$cli" ]; then fail 126 "cannot run $cli (Permission denied: not an executable file)"; fi
if [ "$sandbox" = 1 ]; then
  problem=$(sandbox_problem)
  [ -z "$problem" ] || fail 126 "$problem"
fi

# The CLI unpacks itself (about 235 MB) into $XDG_CACHE_HOME/copilot at its first start. Where this machine has no
# cache this user can write (a container run as an ordinary user has HOME=/), it gets one of its own beside the launch
# folder (in Jenkins the workspace's @tmp folder), which later sessions of the job on this machine reuse; and a home of
# its own when HOME is not a folder it can write.
if ! usable "${XDG_CACHE_HOME:-${HOME:-/nonexistent}/.cache}"; then
  XDG_CACHE_HOME=${in%/*}/copilot-cache-$(id -u)
  if ! usable "$XDG_CACHE_HOME" || ! [ -O "$XDG_CACHE_HOME" ]; then
    fail 126 "no folder for the Copilot CLI's cache: HOME ($HOME) cannot be written and $XDG_CACHE_HOME is not this user's"
  fi
  chmod 700 "$XDG_CACHE_HOME"
  export XDG_CACHE_HOME
fi
if [ -z "${HOME:-}" ] || ! [ -d "$HOME" ] || ! [ -w "$HOME" ]; then
  HOME=$c/home
  mkdir -p "$HOME" || fail 126 "cannot make a home folder for the Copilot CLI in $c"
  export HOME
fi

d=
IFS= read -r d < "$in/workdir" || [ -n "$d" ] || fail 126 "no working directory"
exec 3< "$in/prompt.txt" || fail 126 "cannot read the task"
beat_on $$
[ "$in" = "$c" ] || rm -rf "$in"
cd "$d" || fail 126 "cannot enter the working directory $d"
# the follower did not know which CLI runs here (inside a container): say it first
if [ -n "$describe" ]; then
  v=
  if [ -f "${cli%/*}/package.json" ]; then
    v=$(sed -n 's/^[[:space:]]*"version"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' "${cli%/*}/package.json" | head -n 1)
  fi
  printf '{"type":"autopilot.cli","data":{"path":"%s","version":"%s"}}\n' "$(json "$cli")" "$(json "$v")"
fi
# the shell's own words about how the CLI ended ("Killed") are not the CLI's: they go nowhere
exec 2>/dev/null
snapshot before
beat_off
run_cli "$@"

# ---- the acceptance check, the answer's schema, and going on after GitHub's service refused the session (the CLI
# exits 1 then), as the follower directs them ----

step=0
round=0
if [ -n "$verify" ] || [ "$answers" = 1 ] || { [ "$retries" -gt 0 ] && [ "$code" -eq 1 ]; }; then
  after=cli
  result=$code
  while ! stopped; do
    await "$after" "$result"
    stopped && break
    case $answer in
      check)
        run_check
        after=check ;;
      resume)
        sid=$(first_entry "$COPILOT_HOME/session-state")
        exec 3< "$c/answer-$step.prompt" || break
        run_cli "$@" "--resume=$sid"
        result=$code
        after=cli ;;
      *) break ;;
    esac
  done
  rm -f "$c"/answer-*
fi

# ---- the end ----

# the control folder was deleted while the session ran (Jenkins is done with it): what the CLI made again as it was
# stopped goes, and nothing is written there
if ! [ -f "$c/cli.pid" ]; then
  rm -rf "$c"
  case ${c%/*} in *@tmp) rmdir "${c%/*}" 2>/dev/null ;; esac
  exit "$code"
fi

beat_on $$
# (no snapshot before, no work tree then: nothing to compare with)
if [ -s "$c/git-before.tree" ]; then
  snapshot after
  record_changes
fi
# the session's state for a later run, in one file the follower fetches before it deletes this folder
if [ "$keep" = 1 ]; then
  sid=$(first_entry "$COPILOT_HOME/session-state")
  if [ -n "$sid" ] && tar -czf "$c/kept-session.tgz.tmp" -C "$COPILOT_HOME/session-state" "$sid"; then
    mv "$c/kept-session.tgz.tmp" "$c/kept-session.tgz"
  fi
fi
for f in "$c/git-before.index" "$c/git-after.index"; do
  if [ -e "$f" ]; then rm -f "$f"; fi
done
beat_off
hand_over
printf '%s\n' "$code" > "$c/exit-code.tmp" && mv "$c/exit-code.tmp" "$c/exit-code"
exit "$code"
