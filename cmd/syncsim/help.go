package main

func cmdHelp(e env, args []string) int {
	return exitOK
}
