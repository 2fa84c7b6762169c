# A stand-in for FreeBSD's /etc/rc.subr, sourced by rc.d/diskpulsed in the
# tests: load_rc_config reads $RC_CONF, and run_rc_command does what
# rc.subr's would for start, stop, status, reload and configtest (checks the
# rcvar and required_files, runs the precmd hooks, then the command or the
# signal), writing each step to $RC_LOG.

checkyesno() {
	eval _value=\$${1}
	case $_value in
	[Yy][Ee][Ss]|[Tt][Rr][Uu][Ee]|[Oo][Nn]|1) return 0 ;;
	*) return 1 ;;
	esac
}

load_rc_config() {
	echo "load_rc_config $1" >>"$RC_LOG"
	[ -n "$RC_CONF" ] && [ -r "$RC_CONF" ] && . "$RC_CONF"
	return 0
}

_rc_pid() {
	[ -r "$pidfile" ] || return 1
	_pid=$(cat "$pidfile")
	[ -n "$_pid" ] && kill -0 "$_pid" 2>/dev/null
}

run_rc_command() {
	_cmd=$1
	echo "run_rc_command $_cmd name=$name rcvar=$rcvar command=$command pidfile=$pidfile" >>"$RC_LOG"
	case " $extra_commands start stop status " in
	*" $_cmd "*) ;;
	*) echo "$0: unknown directive '$_cmd'" >&2; return 1 ;;
	esac
	if [ "$_cmd" != configtest ] && ! checkyesno "$rcvar"; then
		echo "Cannot '$_cmd' $name. Set $rcvar to YES in /etc/rc.conf." >&2
		echo "not enabled" >>"$RC_LOG"
		return 0
	fi
	for _f in $required_files; do
		if [ ! -r "$_f" ]; then
			echo "$0: WARNING: $_f is not readable." >&2
			echo "missing required file $_f" >>"$RC_LOG"
			return 1
		fi
	done
	eval _precmd=\$${_cmd}_precmd
	eval _override=\$${_cmd}_cmd
	if [ -n "$_precmd" ]; then
		echo "precmd $_precmd" >>"$RC_LOG"
		if ! eval "$_precmd"; then
			echo "precmd failed" >>"$RC_LOG"
			return 1
		fi
	fi
	if [ -n "$_override" ]; then
		echo "cmd $_override" >>"$RC_LOG"
		eval "$_override"
		return $?
	fi
	case $_cmd in
	start)
		if _rc_pid; then echo "$name already running? (pid=$_pid)." >&2; return 1; fi
		echo "exec $command $command_args $diskpulsed_flags" >>"$RC_LOG"
		eval "$command $command_args $diskpulsed_flags"
		;;
	stop)
		if ! _rc_pid; then echo "$name not running?" >&2; return 1; fi
		echo "kill -TERM $_pid" >>"$RC_LOG"
		kill -TERM "$_pid"
		while kill -0 "$_pid" 2>/dev/null; do sleep 0.1; done
		;;
	status)
		if _rc_pid; then echo "$name is running as pid $_pid."; else echo "$name is not running."; return 1; fi
		;;
	reload)
		if ! _rc_pid; then echo "$name not running?" >&2; return 1; fi
		eval _sig=\$sig_reload
		echo "kill -$_sig $_pid" >>"$RC_LOG"
		kill -"$_sig" "$_pid"
		;;
	esac
}
