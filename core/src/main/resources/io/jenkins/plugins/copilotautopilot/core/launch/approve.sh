#!/bin/sh
# The approval hook of copilot-autopilot: the Copilot CLI's preToolUse hook, configured in the session's private
# COPILOT_HOME (the repository's hooks stay off). The CLI hands it each call of the tools named in the hook's
# matcher, as JSON on standard input. A call whose input matches a rule of approveTools (approval-rules: the rule's
# index, the tool name's and the input's extended regular expressions, tab-separated; made by ApprovalRules) waits
# here for the follower's decision, approvals/ID.decision, which holds the answer the CLI reads; any other call gets
# no answer, and the CLI's own rules decide. The wait ends, denied, when the session is stopped or its folder is gone,
# and at the hook's own deadline when nobody answers (a controller that is down past the approval timeout): no call
# runs undecided.
c=${COPILOT_AUTOPILOT_CONTROL:?}
d=$c/approvals
wait=${COPILOT_AUTOPILOT_APPROVAL_WAIT:-360}

deny() {
  printf '{"permissionDecision":"deny","permissionDecisionReason":"%s"}\n' "$1"
}

input=$(cat; printf x)
input=${input%x}
matched=
while IFS='	' read -r i tools args || [ -n "$i" ]; do
  [ -n "$i" ] || continue
  # 1: no match; 0 a match, 2 an expression this grep cannot read: asking is the safe side
  printf '%s\n' "$input" | grep -E -q -e "[{,] *\"toolName\" *: *\"($tools)\"" 2>/dev/null
  [ $? -eq 1 ] && continue
  if [ -n "$args" ]; then
    printf '%s\n' "$input" | grep -E -q -e "$args" 2>/dev/null
    [ $? -eq 1 ] && continue
  fi
  matched=$i
  break
done < "$c/approval-rules"
[ -n "$matched" ] || exit 0

mkdir -p "$d" 2>/dev/null
id=$(date +%s)-$$
if ! { printf '%s\n' "$matched"; printf '%s' "$input"; } > "$d/$id.part" || ! mv "$d/$id.part" "$d/$id.request"; then
  deny "the approval could not be asked for: the session's control folder cannot be written"
  exit 0
fi
s=0
while :; do
  if [ -f "$d/$id.decision" ]; then
    cat "$d/$id.decision"
    break
  fi
  if [ -f "$c/stop" ] || [ -f "$c/stopped" ]; then
    deny "the session is being stopped"
    break
  fi
  # the session's folder is gone: it has ended (the CLI that asked may have been killed without its hooks)
  if ! [ -d "$d" ]; then
    deny "the session has ended"
    exit 0
  fi
  if [ "$s" -ge $((wait * 5)) ]; then
    deny "nobody approved it in time; do not run it, and do not try to reach the same end another way"
    break
  fi
  sleep 0.2 2>/dev/null || { sleep 1; s=$((s + 4)); }
  s=$((s + 1))
done
: > "$d/$id.done"
exit 0
