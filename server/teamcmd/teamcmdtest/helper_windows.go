package teamcmdtest

import "syscall"

func sessionAttr(bool) *syscall.SysProcAttr { return nil }

func processGroup() int { return 0 }
