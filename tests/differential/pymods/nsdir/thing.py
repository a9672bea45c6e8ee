WHERE = "namespace package member"
