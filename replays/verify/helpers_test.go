package verify_test

import "strconv"

func fmtInt(i int) string { return strconv.Itoa(i) }
