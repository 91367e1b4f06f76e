// Package teamcmdtest holds what tests of team commands share: small team
// programs that are the test binary itself, run again with a hidden first
// argument (HelperArg; a TestMain calls ServeIfHelper), and checks that a
// process or a process group is gone, by pid and pgid (on Linux, from
// /proc). Nothing here is used outside tests.
package teamcmdtest
